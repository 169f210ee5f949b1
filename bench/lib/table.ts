// Plain-text tables with aligned columns (numbers right-aligned).

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

const width = (text: string): number => [...text].length;

export function renderTable(columns: Column[], rows: string[][]): string {
  const widths = columns.map((column, i) => Math.max(width(column.header), ...rows.map((row) => width(row[i] ?? ''))));
  const pad = (text: string, i: number): string => {
    const gap = ' '.repeat(widths[i]! - width(text));
    return columns[i]!.align === 'right' ? gap + text : text + gap;
  };
  const line = (cells: string[]) => `│ ${cells.map((cell, i) => pad(cell, i)).join(' │ ')} │`;
  const rule = (left: string, mid: string, right: string) => left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right;
  return [
    rule('┌', '┬', '┐'),
    line(columns.map((c) => c.header)),
    rule('├', '┼', '┤'),
    ...rows.map(line),
    rule('└', '┴', '┘'),
  ].join('\n');
}
