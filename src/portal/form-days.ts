// The portal's period fields are days (<input type="date">, AAAA-MM-DD) in São Paulo
// time; the services take instants (ISO 8601 with offset), as the API's `desde`/`ate`.
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** São Paulo has kept UTC−3 all year since 2019. */
const SAO_PAULO_OFFSET = '-03:00';
export const DAY_INVALID = 'Data inválida: escolha um dia (AAAA-MM-DD).';

/** A calendar day's first instant in São Paulo, `days` after it; undefined when it is no real day. */
export function dayStart(text: string, days = 0): string | undefined {
  const m = DAY.exec(text);
  if (!m) return undefined;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (at.toISOString().slice(0, 10) !== text) return undefined;
  return `${new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10)}T00:00:00${SAO_PAULO_OFFSET}`;
}

/** A creation period from the form's days: `desde` from its day's start, `ate` up to the end of its day. */
export function dayRange(desde: string | undefined, ate: string | undefined): { desde?: string; ate?: string } | undefined {
  const from = desde !== undefined ? dayStart(desde) : undefined;
  const to = ate !== undefined ? dayStart(ate, 1) : undefined;
  if ((desde !== undefined && !from) || (ate !== undefined && !to)) return undefined;
  return { ...(from ? { desde: from } : {}), ...(to ? { ate: to } : {}) };
}

/** A form or query value, trimmed; undefined when empty. */
export const given = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};
