// `consigna links consent LINK_ID`: the evidence of a customer's consent to the bank
// query, for the operator to hand to the bank (the channel sees only that it was given).
import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import { openContext } from '../server.ts';
import { commandLogger } from './command-log.ts';
import { ChannelInputError } from '../channels/channels.service.ts';
import { consentEvidence } from '../journey/consent-evidence.ts';

export async function runLinksCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (sub !== 'consent') throw new ChannelInputError('expected: links consent LINK_ID [--json]');
  const id = positionals[0];
  if (!id) throw new ChannelInputError('links consent needs the link ID');
  const ctx = await openContext(config, { log: commandLogger() });
  try {
    const evidence = await consentEvidence(ctx, id);
    if (!evidence) throw new ChannelInputError(`link ${id} not found`);
    if (values.json) {
      console.log(JSON.stringify(evidence, null, 2));
      return 0;
    }
    if (!evidence.consentimento) {
      console.log(`Link ${evidence.linkId} (channel ${evidence.canalId}): the customer has not consented to the bank query.`);
      return 0;
    }
    const c = evidence.consentimento;
    console.log(`Link ${evidence.linkId} (channel ${evidence.canalId})`);
    console.log(`consented at ${c.concedidoEm} through ${c.origem ?? (c.selo === 'invalido' ? 'unknown' : 'unknown (erased)')}`);
    if (c.selo === 'invalido') {
      console.log(
        'EVIDENCE INVALID: the sealed IP and user agent do not open for this link (moved from another link, or altered); not shown',
      );
    } else if (c.selo === 'sem_vinculo') {
      console.log("evidence sealed before it was bound to its link: readable, but nothing proves it is this link's");
    }
    console.log(`IP ${c.ip ?? (evidence.dadosPessoaisRemovidosEm ? `erased at ${evidence.dadosPessoaisRemovidosEm}` : '-')}`);
    console.log(`user agent ${c.userAgent ?? '-'}`);
    console.log(`text version ${c.versao}:\n  ${c.texto}`);
    return 0;
  } finally {
    await ctx.release();
  }
}
