// Channel administration, used by the `consigna channels …` commands and by the
// demo channel of `npm start`. Client secrets are shown once and stored as keyed hashes.
import type { Context } from '../context.ts';
import { isCleanText } from '../text/unicode.ts';
import { newClientId, newClientSecret, uuidv7 } from '../crypto/random.ts';
import { normalizeCidr } from '../auth/ip-allow-list.ts';
import { hashClientSecret } from '../auth/credentials.ts';
import { announceChannelChange, forgetChannelLocally } from '../auth/token-cache.ts';
import { revokeChannelTokens } from '../auth/token.repository.ts';
import { endChannelSessions } from '../portal/sessions.repository.ts';
import {
  countChannels,
  findChannelById,
  insertChannels,
  listChannels,
  updateChannel,
  type ChannelRow,
} from './channels.repository.ts';

export class ChannelInputError extends Error {}

export interface Channel {
  id: string;
  name: string;
  clientId: string;
  active: boolean;
  allowedCidrs: string[];
  createdAt: Date;
}

export interface IssuedCredentials {
  canalId: string;
  nome: string;
  clientId: string;
  clientSecret: string;
  ipsPermitidos: string[];
}

type Deps = Pick<Context, 'database' | 'keys' | 'clock'>;

/** The most channels one command creates (`consigna channels create --count N`). */
export const MAX_CHANNELS_PER_CREATE = 1000;

export async function createChannel(deps: Deps, input: { name: string; allowIps?: string[] }): Promise<IssuedCredentials> {
  const [issued] = await createChannels(deps, { names: [input.name], ...(input.allowIps ? { allowIps: input.allowIps } : {}) });
  return issued!;
}

/**
 * Several channels at once, all or none: every name is checked before anything is
 * written, and the rows go in together. One command for many channels spares the
 * start of a process and of the database per channel, which is nearly all a single
 * create costs (the secret's hash is one HMAC).
 */
export async function createChannels(deps: Deps, input: { names: string[]; allowIps?: string[] }): Promise<IssuedCredentials[]> {
  if (input.names.length === 0 || input.names.length > MAX_CHANNELS_PER_CREATE) {
    throw new ChannelInputError(`informe de 1 a ${MAX_CHANNELS_PER_CREATE} canais por comando (recebidos ${input.names.length})`);
  }
  const names = input.names.map((raw) => {
    const name = raw.trim();
    if (name.length === 0 || name.length > 200) throw new ChannelInputError('--name must have 1 to 200 characters');
    if (!isCleanText(name)) throw new ChannelInputError('--name must not hold control, bidirectional or ill-formed characters');
    return name;
  });
  const allowed = (input.allowIps ?? []).flatMap((entry) => entry.split(',')).filter((e) => e.trim() !== '');
  const cidrs = allowed.map((entry) => {
    const cidr = normalizeCidr(entry);
    if (!cidr) throw new ChannelInputError(`--allow-ip ${entry}: not an IPv4/IPv6 address or CIDR`);
    return cidr;
  });
  const now = deps.clock.now();
  const issued: IssuedCredentials[] = [];
  const rows: ChannelRow[] = names.map((name) => {
    const clientSecret = newClientSecret();
    const row: ChannelRow = {
      id: uuidv7(),
      name,
      client_id: newClientId(),
      secret_hash: hashClientSecret(deps, clientSecret),
      active: true,
      allowed_cidrs: cidrs,
      created_at: now,
      updated_at: now,
    };
    issued.push({ canalId: row.id, nome: name, clientId: row.client_id, clientSecret, ipsPermitidos: cidrs });
    return row;
  });
  await insertChannels(deps.database.db, rows);
  return issued;
}

/** Deactivating also ends the channel's portal sessions (reactivating does not bring them back). */
export async function setChannelActive(deps: Deps, id: string, active: boolean): Promise<Channel> {
  await requireChannel(deps, id);
  await deps.database.db.transaction().execute(async (tx) => {
    await updateChannel(tx, id, { active, updated_at: deps.clock.now() });
    if (!active) await endChannelSessions(tx, id, deps.clock.now());
    await announceChannelChange(tx, id);
  });
  forgetChannelLocally(deps.database, id);
  return toChannel((await findChannelById(deps.database.db, id))!);
}

/** A new secret replaces the old one at once, and tokens issued with the old one stop working. */
export async function rotateClientSecret(deps: Deps, id: string): Promise<IssuedCredentials> {
  const channel = await requireChannel(deps, id);
  const clientSecret = newClientSecret();
  await deps.database.db.transaction().execute(async (tx) => {
    await updateChannel(tx, id, { secret_hash: hashClientSecret(deps, clientSecret), updated_at: deps.clock.now() });
    await revokeChannelTokens(tx, id);
    await announceChannelChange(tx, id);
  });
  forgetChannelLocally(deps.database, id);
  return {
    canalId: channel.id,
    nome: channel.name,
    clientId: channel.client_id,
    clientSecret,
    ipsPermitidos: channel.allowed_cidrs,
  };
}

export async function getChannels(deps: Deps): Promise<Channel[]> {
  return (await listChannels(deps.database.db)).map(toChannel);
}

export const hasChannels = async (deps: Deps): Promise<boolean> => (await countChannels(deps.database.db)) > 0;

/** The channel, or the operator told it does not exist. */
export async function requireChannel(deps: Deps, id: string): Promise<ChannelRow> {
  const channel = /^[0-9a-f-]{36}$/i.test(id) ? await findChannelById(deps.database.db, id) : undefined;
  if (!channel) throw new ChannelInputError(`channel ${id} not found`);
  return channel;
}

function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    name: row.name,
    clientId: row.client_id,
    active: row.active,
    allowedCidrs: row.allowed_cidrs,
    createdAt: row.created_at,
  };
}
