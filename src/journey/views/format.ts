const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const pct = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `R$ 12.345,67` with a normal space, so screen readers and tests read it plainly. */
export const money = (reais: number): string => brl.format(reais).replace(/\u00a0/g, ' ');
export const percent = (value: number): string => `${pct.format(value)}%`;
