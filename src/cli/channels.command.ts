import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import { openContext } from '../server.ts';
import { printCredentials } from './credentials-output.ts';
import { commandLogger } from './command-log.ts';
import { normalizeCidr } from '../auth/ip-allow-list.ts';
import {
  ChannelInputError,
  createChannel,
  getChannels,
  requireChannel,
  rotateClientSecret,
  setChannelActive,
} from '../channels/channels.service.ts';
import { channelsHealth, type ChannelHealth } from '../webhooks/webhooks.service.ts';
import { getBrand, putBrand, removeBrand, type BrandResource } from '../brand/brand.service.ts';
import { AppError } from '../errors.ts';

export async function runChannelsCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'allow-ip': { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      color: { type: 'string' },
      logo: { type: 'string' },
      remove: { type: 'boolean', default: false },
    },
  });
  const known = ['create', 'list', 'deactivate', 'activate', 'rotate-secret', 'health', 'brand'];
  if (!sub || !known.includes(sub)) throw new ChannelInputError(`expected one of: channels ${known.join(' | ')}`);
  if (sub === 'create' && !values.name) throw new ChannelInputError('channels create needs --name NAME');
  const id = positionals[0];
  if (['deactivate', 'activate', 'rotate-secret', 'brand'].includes(sub) && !id)
    throw new ChannelInputError(`channels ${sub} needs the channel ID`);

  for (const entry of values['allow-ip'] ?? []) {
    for (const part of entry.split(',')) {
      if (part.trim() && !normalizeCidr(part))
        throw new ChannelInputError(`--allow-ip ${part}: not an IPv4/IPv6 address or CIDR`);
    }
  }

  const ctx = await openContext(config, { log: commandLogger() });
  try {
    switch (sub) {
      case 'create': {
        const issued = await createChannel(ctx, { name: values.name!, allowIps: values['allow-ip'] ?? [] });
        printCredentials(issued, values.json ?? false, 'Channel created.');
        return 0;
      }
      case 'list': {
        const channels = await getChannels(ctx);
        if (values.json) {
          console.log(
            JSON.stringify(
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
            ),
          );
        } else if (channels.length === 0) {
          console.log('No channels yet: consigna channels create --name NAME');
        } else {
          for (const c of channels) {
            console.log(
              `${c.id}  ${c.active ? 'active  ' : 'inactive'}  ${c.clientId}  ${c.name}${c.allowedCidrs.length ? `  [${c.allowedCidrs.join(', ')}]` : ''}`,
            );
          }
        }
        return 0;
      }
      case 'health': {
        printHealth(await channelsHealth(ctx), values.json ?? false);
        return 0;
      }
      case 'brand':
        return await brandCommand(ctx, id!, values);
      case 'deactivate':
      case 'activate': {
        const channel = await setChannelActive(ctx, id!, sub === 'activate');
        console.log(`Channel ${channel.id} (${channel.name}) is now ${channel.active ? 'active' : 'inactive'}.`);
        return 0;
      }
      case 'rotate-secret': {
        const issued = await rotateClientSecret(ctx, id!);
        printCredentials(
          issued,
          values.json ?? false,
          'New client secret issued; the previous one and its tokens no longer work.',
        );
        return 0;
      }
    }
    return 1;
  } finally {
    await ctx.release();
  }
}

/**
 * `channels brand ID`: shows the brand; with --name (and --color, --logo FILE) sets it,
 * validated exactly as PUT /v1/marca; --remove takes it away.
 */
async function brandCommand(
  ctx: Awaited<ReturnType<typeof openContext>>,
  id: string,
  values: { name?: string; color?: string; logo?: string; remove?: boolean; json?: boolean },
): Promise<number> {
  const channel = await requireChannel(ctx, id);
  const print = (brand: BrandResource) => {
    if (values.json) return console.log(JSON.stringify(brand, null, 2));
    console.log(`${channel.id}  ${brand.nome}  colour ${brand.cor ?? 'default'} (applied ${brand.corAplicada})`);
    console.log(
      brand.logo
        ? `logo ${brand.logo.tipo} ${brand.logo.largura}x${brand.logo.altura} ${brand.logo.bytes} bytes ${brand.logo.url}`
        : 'no logo',
    );
  };
  try {
    if (values.remove) {
      await removeBrand(ctx, channel.id);
      console.log(`Brand removed: the pages show the channel's name (${channel.name}).`);
      return 0;
    }
    if (values.name === undefined) {
      if (values.color !== undefined || values.logo !== undefined)
        throw new ChannelInputError('channels brand needs --name NAME to set a brand');
      print(await getBrand(ctx, channel.id));
      return 0;
    }
    const logo =
      values.logo === undefined
        ? undefined
        : await readFile(values.logo).catch(() => {
            throw new ChannelInputError(`--logo ${values.logo}: cannot read the file`);
          });
    const { brand } = await putBrand(ctx, channel.id, {
      nome: values.name,
      ...(values.color !== undefined ? { cor: values.color } : {}),
      ...(logo ? { logo: logo.toString('base64') } : {}),
    });
    print(brand);
    return 0;
  } catch (error) {
    if (error instanceof AppError) throw new ChannelInputError(`${error.code}: ${error.message}`);
    throw error;
  }
}

function printHealth(channels: ChannelHealth[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify(channels, null, 2));
    return;
  }
  if (channels.length === 0) {
    console.log('No channel has a webhook registered.');
    return;
  }
  for (const c of channels) {
    const s = c.saude;
    const state = s.contido ? `CONTAINED since ${s.contidoDesde}` : s.falhasSeguidas > 0 ? 'failing' : 'ok';
    console.log(
      `${c.canalId}  ${c.nome}  ${c.host}  ${state}  failures in a row ${s.falhasSeguidas}  pending ${s.pendentes}  failed ${s.falhas}` +
        `  last success ${s.ultimoSucessoEm ?? '-'}  last failure ${s.ultimaFalhaEm ? `${s.ultimaFalhaEm} (${s.ultimaFalhaMotivo ?? '?'})` : '-'}`,
    );
  }
}
