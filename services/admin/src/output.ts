/** Where a command writes its result: one JSON line with `--json`, human text otherwise. */
export type Output = { json: boolean; line: (text: string) => void };

export function print(output: Output, data: object, human: string): void {
  output.line(output.json ? JSON.stringify(data) : human);
}

/** An output that keeps what is written, for callers that want the result in memory. */
export function memoryOutput(json = false) {
  const lines: string[] = [];
  return {
    output: { json, line: (text: string) => void lines.push(text) } satisfies Output,
    lines,
    /** The single JSON line written with `json` on. */
    result: <T = Record<string, unknown>>(): T => {
      if (lines.length !== 1) throw new Error(`expected one line of output, got ${lines.length}`);
      return JSON.parse(lines[0]!) as T;
    },
  };
}
