// The funnel's period: calendar days of São Paulo (docs/rules.md §3.12), given as
// `AAAA-MM-DD`, both ends included, at most MAX_DAYS of them. Days are counted in
// America/Sao_Paulo, whatever the server's zone: that is where a channel's day starts
// and ends (a link created at 02:30 UTC belongs to the day before there).
import { badRequest } from '../errors.ts';
import { FIELD_MESSAGES } from '../text/messages.ts';

export const TIME_ZONE = 'America/Sao_Paulo';
export const MAX_DAYS = 366;
export const ATE_DAY_MESSAGE = 'Parâmetro ate inválido: informe um dia AAAA-MM-DD, por exemplo 2026-11-30.';

const DAY_MS = 86_400_000;

export interface DayPeriod {
  /** AAAA-MM-DD, inclusive. */
  de: string;
  ate: string;
  /** Every day from `de` to `ate`, in order. */
  days: string[];
}

/** The day as milliseconds at UTC midnight, or undefined when it is not a real calendar day. */
function dayMs(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = Date.UTC(year, month - 1, day);
  const back = new Date(at);
  // Date.UTC maps years 0–99 to 1900–1999 and rolls 2026-02-30 over to March: both refused.
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day ? at : undefined;
}

const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function dayPeriod(query: { de?: string | undefined; ate?: string | undefined }): DayPeriod {
  const de = query.de === undefined ? undefined : dayMs(query.de);
  if (de === undefined) throw badRequest('de_invalido', FIELD_MESSAGES.de_invalido!);
  const ate = query.ate === undefined ? undefined : dayMs(query.ate);
  if (ate === undefined) throw badRequest('ate_invalido', ATE_DAY_MESSAGE);
  if (ate < de) throw badRequest('periodo_invalido', 'Período inválido: de deve ser anterior ou igual a ate.');
  const count = (ate - de) / DAY_MS + 1;
  if (count > MAX_DAYS) {
    throw badRequest(
      'periodo_invalido',
      `Período inválido: no máximo ${MAX_DAYS} dias (de ${query.de} a ${query.ate} são ${count}).`,
    );
  }
  return { de: dayText(de), ate: dayText(ate), days: Array.from({ length: count }, (_, i) => dayText(de + i * DAY_MS)) };
}
