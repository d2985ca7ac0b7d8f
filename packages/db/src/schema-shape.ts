import pg from 'pg';

/**
 * The shape of a database as PostgreSQL reports it — tables, columns (type, nullability,
 * default), primary keys, indexes (columns, order, uniqueness), foreign keys and enums —
 * in plain comparable values. The migration drift check compares it with the Prisma schema.
 */
export type DatabaseShape = {
  enums: Record<string, string[]>;
  tables: Record<string, TableShape>;
};

export type TableShape = {
  columns: Record<string, { type: string; nullable: boolean; hasDefault: boolean }>;
  primaryKey: string[];
  /** `name` → `unique? (col [DESC], …)` */
  indexes: Record<string, string>;
  /** `(cols) → table(cols)` */
  foreignKeys: string[];
};

export async function readDatabaseShape(databaseUrl: string): Promise<DatabaseShape> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const enums = await client.query<{ name: string; values: string[] }>(`
      SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS values
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' GROUP BY t.typname`);
    const columns = await client.query<{ table: string; column: string; type: string; nullable: boolean; has_default: boolean }>(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
             NOT a.attnotnull AS nullable, a.atthasdef AS has_default
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
        AND c.relname <> '_prisma_migrations'`);
    const indexes = await client.query<{ table: string; name: string; primary: boolean; unique: boolean; columns: string[]; descending: boolean[] }>(`
      SELECT t.relname AS table, i.relname AS name, x.indisprimary AS primary, x.indisunique AS unique,
             array_agg(a.attname::text ORDER BY k.ord) AS columns,
             array_agg((x.indoption[k.ord - 1] & 1) = 1 ORDER BY k.ord) AS descending
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
      GROUP BY t.relname, i.relname, x.indisprimary, x.indisunique`);
    const foreignKeys = await client.query<{ table: string; definition: string }>(`
      SELECT c.relname AS table, pg_get_constraintdef(k.oid) AS definition
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND k.contype = 'f'`);

    const shape: DatabaseShape = { enums: {}, tables: {} };
    for (const e of enums.rows) shape.enums[e.name] = e.values;
    const table = (name: string) => (shape.tables[name] ??= { columns: {}, primaryKey: [], indexes: {}, foreignKeys: [] });
    for (const c of columns.rows) table(c.table).columns[c.column] = { type: c.type, nullable: c.nullable, hasDefault: c.has_default };
    for (const i of indexes.rows) {
      if (i.primary) table(i.table).primaryKey = i.columns;
      else table(i.table).indexes[i.name] = indexSignature(i.unique, i.columns, i.descending);
    }
    for (const f of foreignKeys.rows) table(f.table).foreignKeys.push(foreignKeySignature(f.definition));
    for (const t of Object.values(shape.tables)) t.foreignKeys.sort();
    return shape;
  } finally {
    await client.end();
  }
}

export function indexSignature(unique: boolean, columns: string[], descending: boolean[]): string {
  return `${unique ? 'unique ' : ''}(${columns.map((c, i) => (descending[i] ? `${c} DESC` : c)).join(', ')})`;
}

/** `FOREIGN KEY (a) REFERENCES t(id) ON UPDATE CASCADE ON DELETE CASCADE` → `(a) → t(id) on delete cascade`. */
function foreignKeySignature(definition: string): string {
  const m = definition.match(/FOREIGN KEY \(([^)]*)\) REFERENCES (\S+)\(([^)]*)\)(.*)/);
  if (!m) return definition;
  const onDelete = m[4]?.match(/ON DELETE (CASCADE|SET NULL|SET DEFAULT|RESTRICT)/)?.[1]?.toLowerCase() ?? 'no action';
  return `(${m[1]}) → ${m[2]?.replace(/"/g, '')}(${m[3]}) on delete ${onDelete}`;
}
