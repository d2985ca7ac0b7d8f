/** The parts of a `Service-Signature` header: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export interface SignatureHeader {
  timestamp: number;
  signatures: string[];
}

/** Parses the header; unknown schemes (v0, v2...) are skipped so new ones can be added later. */
export function parseSignatureHeader(header: string): SignatureHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      signatures.push(value);
    }
  }
  return timestamp === null ? null : { timestamp, signatures };
}

/** Builds the header value the sender puts on a delivery. */
export function formatSignatureHeader({ timestamp, signatures }: SignatureHeader): string {
  return [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`)].join(',');
}
