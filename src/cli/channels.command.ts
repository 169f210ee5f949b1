// `consigna channels …`: the arguments are read into a request (files read here, by the
// operator's process), and the request runs against a context: the command's own, or,
// while an embedded service holds the data folder, the running service's (asked over its
// control socket, src/db/control-socket.ts, it runs `executeChannels` and sends back the
// text to print).
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { Config } from '../config/config.ts';
import type { Context } from '../context.ts';
import { openContext } from '../server.ts';
import { formatCredentials, formatCredentialsList } from './credentials-output.ts';
import { commandLogger } from './command-log.ts';
import { normalizeCidr } from '../auth/ip-allow-list.ts';
import {
  ChannelInputError,
  createChannels,
  getChannels,
  MAX_CHANNELS_PER_CREATE,
  requireChannel,
  rotateClientSecret,
  setChannelActive,
} from '../channels/channels.service.ts';
import { channelsHealth, type ChannelHealth } from '../webhooks/webhooks.service.ts';
import { getBrand, putBrand, removeBrand, type BrandResource } from '../brand/brand.service.ts';
import { AppError } from '../errors.ts';
import { createPortalLink, PERMISSOES, PORTAL_LINK_TTL_SECONDS } from '../portal/sessions.service.ts';
import { DataDirBusyError } from '../db/data-dir-lock.ts';
import { askControlSocket, hasControlSocket } from '../db/control-socket.ts';

const SUBCOMMANDS: readonly ChannelsRequest['sub'][] = [
  'create',
  'list',
  'deactivate',
  'activate',
  'rotate-secret',
  'health',
  'brand',
  'portal',
];

/** A logo file this large is refused before it is read (the API's own limit is 16 KB). */
const MAX_LOGO_FILE_BYTES = 256 * 1024;

/** What one `channels …` command asks for, as it travels to a running service. */
export const ChannelsRequestSchema = Type.Object(
  {
    sub: Type.Union([
      Type.Literal('create'),
      Type.Literal('list'),
      Type.Literal('deactivate'),
      Type.Literal('activate'),
      Type.Literal('rotate-secret'),
      Type.Literal('health'),
      Type.Literal('brand'),
      Type.Literal('portal'),
    ]),
    id: Type.Optional(Type.String({ maxLength: 100 })),
    /** create: the names of the channels to create. */
    names: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: MAX_CHANNELS_PER_CREATE })),
    /** create: print a list (--count, or --name more than once), even of one. */
    several: Type.Boolean(),
    allowIps: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 1000 }),
    json: Type.Boolean(),
    brandName: Type.Optional(Type.String({ maxLength: 1000 })),
    color: Type.Optional(Type.String({ maxLength: 100 })),
    /** The logo file's bytes in base64. */
    logo: Type.Optional(Type.String({ maxLength: Math.ceil(MAX_LOGO_FILE_BYTES / 3) * 4 })),
    remove: Type.Boolean(),
    /** portal: a read-only session. */
    leitura: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ChannelsRequest = Static<typeof ChannelsRequestSchema>;

/** How long the CLI waits for a running service to carry out a command. */
const RUNNING_SERVICE_TIMEOUT_MS = 60_000;

export async function runChannelsCommand(config: Config, argv: string[]): Promise<number> {
  const request = await parseChannelsArgs(argv);
  let ctx: Awaited<ReturnType<typeof openContext>>;
  try {
    ctx = await openContext(config, { log: commandLogger() });
  } catch (error) {
    // The embedded data folder is held by a running service: it runs the command.
    if (!(error instanceof DataDirBusyError) || !hasControlSocket(config.dataDir)) throw error;
    console.log(await askRunningService(config.dataDir, request));
    return 0;
  }
  try {
    console.log(await executeChannels(ctx, request));
  } finally {
    await ctx.release();
  }
  return 0;
}

async function askRunningService(dataDir: string, request: ChannelsRequest): Promise<string> {
  let answer: Record<string, unknown>;
  try {
    answer = await askControlSocket(dataDir, { channels: request }, RUNNING_SERVICE_TIMEOUT_MS);
  } catch (error) {
    throw new ChannelInputError((error as Error).message);
  }
  if (typeof answer.saida !== 'string') throw new ChannelInputError('the running service gave no answer');
  return answer.saida;
}

/** The running service's side of the control socket: `{"channels": ChannelsRequest}` answers `{"saida": text}`. */
export async function answerChannelsRequest(ctx: Context, payload: unknown): Promise<{ saida: string }> {
  if (!Value.Check(ChannelsRequestSchema, payload)) throw new ChannelInputError('pedido de channels inválido');
  return { saida: await executeChannels(ctx, payload) };
}

/** Reads and checks the arguments; everything wrong with them is said before any database is opened. */
export async function parseChannelsArgs(argv: string[]): Promise<ChannelsRequest> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string', multiple: true },
      count: { type: 'string' },
      'name-prefix': { type: 'string' },
      'allow-ip': { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      color: { type: 'string' },
      logo: { type: 'string' },
      remove: { type: 'boolean', default: false },
      leitura: { type: 'boolean', default: false },
    },
  });
  const isSub = (value: string | undefined): value is ChannelsRequest['sub'] =>
    (SUBCOMMANDS as readonly string[]).includes(value ?? '');
  if (!isSub(sub)) throw new ChannelInputError(`expected one of: channels ${SUBCOMMANDS.join(' | ')}`);
  const id = positionals[0];
  if (['deactivate', 'activate', 'rotate-secret', 'brand', 'portal'].includes(sub) && !id)
    throw new ChannelInputError(`channels ${sub} needs the channel ID`);

  for (const entry of values['allow-ip'] ?? []) {
    for (const part of entry.split(',')) {
      if (part.trim() && !normalizeCidr(part))
        throw new ChannelInputError(`--allow-ip ${part}: not an IPv4/IPv6 address or CIDR`);
    }
  }
  const given = values.name ?? [];
  const request: ChannelsRequest = {
    sub,
    ...(id !== undefined ? { id } : {}),
    several: false,
    allowIps: values['allow-ip'] ?? [],
    json: values.json ?? false,
    remove: values.remove ?? false,
  };
  if (sub === 'create') {
    const names = namesToCreate(given, values.count, values['name-prefix']);
    return { ...request, names, several: values.count !== undefined || given.length > 1 };
  }
  if (values.count !== undefined || values['name-prefix'] !== undefined)
    throw new ChannelInputError('--count e --name-prefix servem só a channels create');
  if (values.leitura && sub !== 'portal') throw new ChannelInputError('--leitura serve só a channels portal');
  if (sub === 'portal') return { ...request, leitura: values.leitura ?? false };
  if (sub === 'brand') {
    if (given.length > 1) throw new ChannelInputError('channels brand takes one --name');
    return {
      ...request,
      ...(given[0] !== undefined ? { brandName: given[0] } : {}),
      ...(values.color !== undefined ? { color: values.color } : {}),
      ...(values.logo !== undefined ? { logo: await readLogo(values.logo) } : {}),
    };
  }
  return request;
}

/**
 * `--name A [--name B]…`, or `--count N [--name-prefix P]` for P-001 … P-N (numbers as
 * wide as N, so that the names sort as they were made).
 */
function namesToCreate(names: string[], count: string | undefined, prefix: string | undefined): string[] {
  if (count === undefined) {
    if (prefix !== undefined) throw new ChannelInputError('--name-prefix precisa de --count N');
    if (names.length === 0) throw new ChannelInputError('channels create needs --name NAME (or --count N)');
    if (names.length > MAX_CHANNELS_PER_CREATE)
      throw new ChannelInputError(`no máximo ${MAX_CHANNELS_PER_CREATE} --name por comando (recebidos ${names.length})`);
    return names;
  }
  if (names.length > 0) throw new ChannelInputError('use --count com --name-prefix, não com --name');
  const n = /^\d{1,7}$/.test(count) ? Number(count) : NaN;
  if (!(n >= 1 && n <= MAX_CHANNELS_PER_CREATE)) {
    throw new ChannelInputError(`--count deve ser um número inteiro de 1 a ${MAX_CHANNELS_PER_CREATE} (recebido "${count}")`);
  }
  const base = (prefix ?? 'canal').trim();
  if (base.length === 0) throw new ChannelInputError('--name-prefix não pode ser vazio');
  const width = String(n).length;
  return Array.from({ length: n }, (_, i) => `${base}-${String(i + 1).padStart(width, '0')}`);
}

async function readLogo(file: string): Promise<string> {
  const cannotRead = () => new ChannelInputError(`--logo ${file}: cannot read the file`);
  const size = await stat(file).then(
    (s) => s.size,
    () => Promise.reject(cannotRead()),
  );
  if (size > MAX_LOGO_FILE_BYTES) throw new ChannelInputError(`--logo ${file}: ${size} bytes; a logo has at most 16 KB`);
  return (await readFile(file).catch(() => Promise.reject(cannotRead()))).toString('base64');
}

/** Runs the request against `ctx` and returns what the command prints. Input errors are ChannelInputError. */
export async function executeChannels(ctx: Context, request: ChannelsRequest): Promise<string> {
  const { id, json } = request;
  switch (request.sub) {
    case 'create': {
      const issued = await createChannels(ctx, { names: request.names ?? [], allowIps: request.allowIps });
      if (request.several) return formatCredentialsList(issued, json);
      return formatCredentials(issued[0]!, json, 'Channel created.');
    }
    case 'list': {
      const channels = await getChannels(ctx);
      if (json) {
        return JSON.stringify(
          channels.map((c) => ({
            canalId: c.id,
            nome: c.name,
            clientId: c.clientId,
            ativo: c.active,
            ipsPermitidos: c.allowedCidrs,
            criadoEm: c.createdAt.toISOString(),
          })),
          null,
          2,
        );
      }
      if (channels.length === 0) return 'No channels yet: consigna channels create --name NAME';
      return channels
        .map(
          (c) =>
            `${c.id}  ${c.active ? 'active  ' : 'inactive'}  ${c.clientId}  ${c.name}${c.allowedCidrs.length ? `  [${c.allowedCidrs.join(', ')}]` : ''}`,
        )
        .join('\n');
    }
    case 'health':
      return formatHealth(await channelsHealth(ctx), json);
    case 'brand':
      return await brandCommand(ctx, id!, request);
    case 'portal':
      return await portalCommand(ctx, id!, request);
    case 'deactivate':
    case 'activate': {
      const channel = await setChannelActive(ctx, id!, request.sub === 'activate');
      return `Channel ${channel.id} (${channel.name}) is now ${channel.active ? 'active' : 'inactive'}.`;
    }
    case 'rotate-secret': {
      const issued = await rotateClientSecret(ctx, id!);
      return formatCredentials(issued, json, 'New client secret issued; the previous one and its tokens no longer work.');
    }
  }
}

/**
 * `channels brand ID`: shows the brand; with --name (and --color, --logo FILE) sets it,
 * validated exactly as PUT /v1/marca; --remove takes it away.
 */
async function brandCommand(ctx: Context, id: string, request: ChannelsRequest): Promise<string> {
  const channel = await requireChannel(ctx, id);
  const format = (brand: BrandResource) => {
    if (request.json) return JSON.stringify(brand, null, 2);
    return [
      `${channel.id}  ${brand.nome}  colour ${brand.cor ?? 'default'} (applied ${brand.corAplicada})`,
      brand.logo
        ? `logo ${brand.logo.tipo} ${brand.logo.largura}x${brand.logo.altura} ${brand.logo.bytes} bytes ${brand.logo.url}`
        : 'no logo',
    ].join('\n');
  };
  try {
    if (request.remove) {
      await removeBrand(ctx, channel.id);
      return `Brand removed: the pages show the channel's name (${channel.name}).`;
    }
    if (request.brandName === undefined) {
      if (request.color !== undefined || request.logo !== undefined)
        throw new ChannelInputError('channels brand needs --name NAME to set a brand');
      return format(await getBrand(ctx, channel.id));
    }
    const { brand } = await putBrand(ctx, channel.id, {
      nome: request.brandName,
      ...(request.color !== undefined ? { cor: request.color } : {}),
      ...(request.logo !== undefined ? { logo: request.logo } : {}),
    });
    return format(brand);
  } catch (error) {
    if (error instanceof AppError) throw new ChannelInputError(`${error.code}: ${error.message}`);
    throw error;
  }
}

/**
 * `channels portal ID [--leitura]`: a single-use entry link to the channel's portal, as
 * POST /v1/portal/sessoes gives one. The link is a secret: printed, never logged.
 */
async function portalCommand(ctx: Context, id: string, request: ChannelsRequest): Promise<string> {
  const channel = await requireChannel(ctx, id);
  if (!channel.active) throw new ChannelInputError(`channel ${channel.id} is inactive: activate it first`);
  const issued = await createPortalLink(ctx, channel.id, request.leitura ? ['leitura'] : [...PERMISSOES]);
  if (request.json) return JSON.stringify(issued, null, 2);
  return [
    issued.url,
    `Single use, valid until ${issued.expiraEm} (${PORTAL_LINK_TTL_SECONDS / 60} minutes); ${
      request.leitura ? 'read-only session' : 'full session (read and change)'
    } of ${channel.name}.`,
  ].join('\n');
}

function formatHealth(channels: ChannelHealth[], json: boolean): string {
  if (json) return JSON.stringify(channels, null, 2);
  if (channels.length === 0) return 'No channel has a webhook registered.';
  return channels
    .map((c) => {
      const s = c.saude;
      const state = s.contido ? `CONTAINED since ${s.contidoDesde}` : s.falhasSeguidas > 0 ? 'failing' : 'ok';
      return (
        `${c.canalId}  ${c.nome}  ${c.host}  ${state}  failures in a row ${s.falhasSeguidas}  pending ${s.pendentes}  failed ${s.falhas}` +
        `  last success ${s.ultimoSucessoEm ?? '-'}  last failure ${s.ultimaFalhaEm ? `${s.ultimaFalhaEm} (${s.ultimaFalhaMotivo ?? '?'})` : '-'}`
      );
    })
    .join('\n');
}
