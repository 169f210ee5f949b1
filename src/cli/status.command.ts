// `consigna status`: the delivery queue, failing channels, each delivery worker's slots, the sweeper's last round and
// the database's size by table (src/operations/status.ts). With the embedded database
// the service must be stopped (one process opens the data folder); with PostgreSQL, any time.
import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import { openContext } from '../server.ts';
import { commandLogger } from './command-log.ts';
import { serviceStatus } from '../operations/status.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export async function runStatusCommand(config: Config, argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } } });
  const ctx = await openContext(config, { log: commandLogger() });
  try {
    const status = await serviceStatus(ctx);
    if (values.json) {
      console.log(JSON.stringify(status, null, 2));
      return 0;
    }
    const q = status.fila;
    console.log(
      `queue: ${q.pendentes} pending, ${q.vencidas} due` +
        (q.maisAntigaVencidaEm ? `, oldest due since ${q.maisAntigaVencidaEm} (${q.idadeMaisAntigaSegundos} s)` : ''),
    );
    if (status.canaisComFalha.length === 0) console.log('failing channels: none');
    for (const c of status.canaisComFalha) {
      const s = c.saude;
      console.log(
        `failing channel ${c.canalId}  ${c.nome}  ${c.host}  ${s.contido ? `CONTAINED since ${s.contidoDesde}` : 'failing'}` +
          `  failures in a row ${s.falhasSeguidas}  last failure ${s.ultimaFalhaEm ?? '-'} (${s.ultimaFalhaMotivo ?? '?'})  pending ${s.pendentes}  failed ${s.falhas}`,
      );
    }
    if (status.trabalhadores.length === 0) console.log('delivery workers: none seen in the last minute');
    for (const w of status.trabalhadores) {
      console.log(
        `delivery worker ${w.id}  seen ${w.vistoEm}  slots in use ${w.vagasOcupadas} (slow channels ${w.vagasDeCanaisLentos})` +
          `  slow requests ${w.pedidosLentos}${w.pedidosLentos > 0 ? ` (oldest ${w.lentoMaisAntigoSegundos} s)` : ''}  slow channels ${w.canaisLentos}`,
      );
    }
    const last = status.ultimaVarredura;
    console.log(
      last
        ? `sweeper: last round ${last.em}, ${last.duracaoMs} ms${Object.entries(last.feito)
            .filter(([, n]) => n > 0)
            .map(([k, n]) => `, ${k} ${n}`)
            .join('')}`
        : 'sweeper: no round recorded yet',
    );
    console.log(`database: ${mb(status.bancoBytes)}`);
    for (const t of status.tabelas) console.log(`  ${t.tabela.padEnd(24)} ${mb(t.bytes).padStart(10)}  ~${t.linhas} rows`);
    return 0;
  } finally {
    await ctx.release();
  }
}
