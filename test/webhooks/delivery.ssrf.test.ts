// SSRF at delivery time, with the development switch off (production rules). Every
// webhook URL is a public-looking https name; the resolver override answers with an
// address of a forbidden class, pointed at a local listener on that port. The
// delivery must be refused before any connection: the listener counts zero. A
// control name resolving to an allowed address shows the listener would see one.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { VALID_CPFS } from '../helpers/links.ts';
import { forbiddenAddressReason } from '../../src/webhooks/address-policy.ts';
import type { ResolvedAddress } from '../../src/webhooks/outbound.ts';
import { channelWith, listDeliveries, proposalLink, type Delivery } from './support.ts';

const DOMAIN = 'hooks-publicos.com.br';
// The only address the control may reach: a loopback alias the policy is told to allow.
const CONTROL_ADDRESS = '127.0.0.2';

const CLASSES: Array<{ label: string; answer: ResolvedAddress[]; error: string }> = [
  { label: 'loopback', answer: [{ address: '127.0.0.1', family: 4 }], error: 'endereço recusado: 127.0.0.1 (loopback)' },
  { label: 'loopback6', answer: [{ address: '::1', family: 6 }], error: 'endereço recusado: ::1 (loopback)' },
  { label: 'privada', answer: [{ address: '10.1.2.3', family: 4 }], error: 'endereço recusado: 10.1.2.3 (rede privada)' },
  {
    label: 'linklocal',
    answer: [{ address: '169.254.169.254', family: 4 }],
    error: 'endereço recusado: 169.254.169.254 (link-local)',
  },
  { label: 'cgnat', answer: [{ address: '100.64.0.1', family: 4 }], error: 'endereço recusado: 100.64.0.1 (rede CGNAT)' },
  {
    label: 'mapeado',
    answer: [{ address: '::ffff:127.0.0.1', family: 6 }],
    error: 'endereço recusado: ::ffff:127.0.0.1 (loopback (IPv4 mapeado))',
  },
  {
    label: 'naoespecificado',
    answer: [{ address: '0.0.0.0', family: 4 }],
    error: 'endereço recusado: 0.0.0.0 (endereço não especificado)',
  },
  { label: 'multicast', answer: [{ address: '224.0.0.1', family: 4 }], error: 'endereço recusado: 224.0.0.1 (multicast)' },
  // One bad address among good ones is enough to refuse: every answer is checked.
  {
    label: 'misturado',
    answer: [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    error: 'endereço recusado: 127.0.0.1 (loopback)',
  },
];

/** A bare TCP listener on every local address (dual stack): counts connections, never answers. */
async function startTrap() {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '::', ipv6Only: false }, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    get connections() {
      return connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let service: TestService;
let trap: Awaited<ReturnType<typeof startTrap>>;
let controlTrap: Awaited<ReturnType<typeof startTrap>>;
const resolved: string[] = [];

beforeAll(async () => {
  trap = await startTrap();
  controlTrap = await startTrap();
  service = await startTestService({
    worker: true,
    // No CONSIGNA_ALLOW_INSECURE_WEBHOOKS: production URL and address rules.
    env: { CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1', CONSIGNA_DELIVERY_TIMEOUT_MS: '500', CONSIGNA_WORKER_LEASE_SECONDS: '15' },
    outbound: {
      resolve: async (hostname) => {
        resolved.push(hostname);
        const label = hostname.split('.')[0];
        if (label === 'controle') return [{ address: CONTROL_ADDRESS, family: 4 }];
        const entry = CLASSES.find((c) => c.label === label);
        if (!entry) throw Object.assign(new Error(`unexpected name ${hostname}`), { code: 'ENOTFOUND' });
        return entry.answer;
      },
      isForbidden: (ip) => (ip === CONTROL_ADDRESS ? undefined : forbiddenAddressReason(ip)),
    },
  });
});

afterAll(async () => {
  await service?.close();
  await trap?.close();
  await controlTrap?.close();
});

async function firstAttempt(auth: Record<string, string>): Promise<Delivery> {
  let delivery: Delivery | undefined;
  await waitFor(
    async () => {
      delivery = (await listDeliveries(service, auth)).find((d) => d.ultimoErro !== undefined);
      return delivery !== undefined;
    },
    { timeoutMs: 15_000, what: 'a recorded attempt' },
  );
  return delivery!;
}

describe('delivery-time address checks (development switch off)', () => {
  it('refuses every forbidden address class before connecting, for queued deliveries and the test event', async () => {
    const setups = await Promise.all(
      CLASSES.map(async (c, i) => {
        const url = `https://${c.label}.${DOMAIN}:${trap.port}/webhook`;
        const { auth } = await channelWith(service, url, ['proposta.criada']);
        await proposalLink(service, auth, VALID_CPFS[i % VALID_CPFS.length]);
        return { ...c, auth };
      }),
    );
    for (const s of setups) {
      const delivery = await firstAttempt(s.auth);
      expect(delivery, s.label).toMatchObject({ tipo: 'proposta.criada', status: 'PENDENTE', ultimoErro: s.error });
      expect(delivery.ultimoHttpStatus, s.label).toBeUndefined();
      expect(delivery.ultimoErro).toMatch(/^endereço recusado/);

      const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: s.auth });
      expect(test.statusCode).toBe(200);
      expect(test.json(), s.label).toEqual({ entregue: false, latenciaMs: expect.any(Number), erro: s.error });
    }
    // Let a couple of retries of every delivery happen too.
    await waitFor(
      async () => {
        for (const s of setups) if ((await listDeliveries(service, s.auth))[0]!.tentativas < 2) return false;
        return true;
      },
      { timeoutMs: 15_000, what: 'second attempts' },
    );
    expect(trap.connections).toBe(0);
    for (const c of CLASSES) expect(resolved).toContain(`${c.label}.${DOMAIN}`);
  });

  it('control: an address the policy allows does reach the listener', async () => {
    const { auth } = await channelWith(service, `https://controle.${DOMAIN}:${controlTrap.port}/webhook`);
    const test = await service.inject({ method: 'POST', url: '/v1/webhooks/teste', headers: auth });
    // The listener accepts the TCP connection and never completes TLS: a timeout.
    expect(test.json()).toMatchObject({ entregue: false, erro: expect.stringMatching(/^tempo esgotado/) });
    expect(controlTrap.connections).toBeGreaterThanOrEqual(1);
  });
});
