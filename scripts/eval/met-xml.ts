/**
 * Reads a match equity table in gnubg's MET XML format (met.dtd): the
 * pre-Crawford table (row a-1, column b-1: the MWC of the player needing a
 * against one needing b; the 1-away row and column are the Crawford game)
 * and the post-Crawford row (entry b-1: the MWC of the trailer needing b
 * against the leader at 1-away), with the file's leading comment.
 */
export interface MetXml {
  readonly name: string;
  readonly description: string;
  /** The XML comment before `<met>`: copyright and licence. */
  readonly notice: string;
  readonly pre: number[][];
  readonly post: number[];
}

export function parseMetXml(xml: string): MetXml {
  const section = (tag: string) => {
    const start = xml.indexOf(`<${tag}`);
    if (start < 0) throw new Error(`no <${tag}> in the MET file`);
    const end = xml.indexOf(`</${tag}>`, start);
    return xml.slice(start, end);
  };
  const rows = (text: string) =>
    [...text.matchAll(/<row>([\s\S]*?)<\/row>/g)].map((m) => [...m[1].matchAll(/<me>([0-9.]+)<\/me>/g)].map((x) => Number(x[1])));
  const comment = /<!--([\s\S]*?)-->/.exec(xml)?.[1] ?? '';
  return {
    name: /<name>([\s\S]*?)<\/name>/.exec(xml)?.[1].trim() ?? '',
    description: /<description>([\s\S]*?)<\/description>/.exec(xml)?.[1].trim() ?? '',
    notice: comment
      .split('\n')
      .map((l) => l.trim())
      .join('\n')
      .trim(),
    pre: rows(section('pre-crawford-table')),
    post: rows(section('post-crawford-table'))[0],
  };
}
