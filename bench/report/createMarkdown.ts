export type Markdown = {
  /** one line of text (none: an empty line) */
  line: (s?: string) => void
  /** a table, then an empty line */
  table: (head: string[], rows: string[][]) => void
  text: () => string
}

/** The report's writer: lines and tables, joined at the end. */
export function createMarkdown(): Markdown {
  const out: string[] = []
  const line = (s = '') => {
    out.push(s)
  }
  return {
    line,
    table: (head, rows) => {
      line(`| ${head.join(' | ')} |`)
      line(`| ${head.map(() => '---').join(' | ')} |`)
      for (const row of rows) line(`| ${row.join(' | ')} |`)
      line()
    },
    text: () => out.join('\n'),
  }
}
