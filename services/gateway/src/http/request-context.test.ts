import { describe, expect, it } from 'vitest';
import { pathForLog } from './request-context.ts';

describe('the access log', () => {
  it('never holds a greenlight link token, which acts without a login', () => {
    expect(pathForLog('/production-links/eyJhIjoxfQ.c2ln/greenlight')).toBe('/production-links/[token]/greenlight');
    expect(pathForLog('/go/eyJhIjoxfQ.c2ln')).toBe('/go/[token]');
    expect(pathForLog('/v1/productions/0b9c2d4e-0000-4000-8000-000000000000')).toBe('/v1/productions/0b9c2d4e-0000-4000-8000-000000000000');
  });
});
