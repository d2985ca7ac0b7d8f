import { readFile } from 'node:fs/promises';
import internals from '@prisma/internals';
import { indexSignature, type DatabaseShape, type TableShape } from './schema-shape.ts';

type DMMF = Awaited<ReturnType<typeof internals.getDMMF>>;
type Field = DMMF['datamodel']['models'][number]['fields'][number];

export const SCHEMA_PATH = new URL('../../../prisma/schema.prisma', import.meta.url).pathname;

/** PostgreSQL's name for each Prisma scalar without a native type attribute (Prisma's defaults). */
const DEFAULT_TYPES: Record<string, string> = {
  String: 'text', Int: 'integer', BigInt: 'bigint', Boolean: 'boolean', Float: 'double precision',
  Decimal: 'numeric(65,30)', DateTime: 'timestamp(3) without time zone', Json: 'jsonb', Bytes: 'bytea',
};

/** PostgreSQL's name for each native type attribute (`@db.Uuid`, `@db.Timestamptz(3)`, …). */
function nativeType([name, args]: [string, string[]]): string {
  const size = args.length ? `(${args.join(',')})` : '';
  switch (name) {
    case 'Uuid': return 'uuid';
    case 'Text': return 'text';
    case 'VarChar': return `character varying${size}`;
    case 'Char': return `character${size}`;
    case 'Timestamptz': return `timestamp${size || '(6)'} with time zone`;
    case 'Timestamp': return `timestamp${size || '(6)'} without time zone`;
    case 'Date': return 'date';
    case 'SmallInt': return 'smallint';
    case 'Integer': return 'integer';
    case 'BigInt': return 'bigint';
    case 'JsonB': return 'jsonb';
    case 'Json': return 'json';
    default: return `${name.toLowerCase()}${size}`;
  }
}

/** Defaults Prisma fills in itself; the column has none. */
const CLIENT_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

function columnOf(field: Field, enumNames: Map<string, string>) {
  const base = field.kind === 'enum'
    ? enumNames.get(field.type)!
    : field.nativeType ? nativeType(field.nativeType as [string, string[]]) : DEFAULT_TYPES[field.type] ?? field.type;
  const fn = typeof field.default === 'object' && field.default !== null && 'name' in field.default ? (field.default as { name: string }).name : null;
  return {
    type: field.isList ? `${base}[]` : base,
    // Prisma creates list columns without NOT NULL.
    nullable: field.isList || !field.isRequired,
    hasDefault: field.hasDefaultValue && !(fn && CLIENT_DEFAULTS.has(fn)),
  };
}

/** Prisma's default constraint names, cut to PostgreSQL's 63 characters. */
function defaultIndexName(table: string, columns: string[], suffix: 'key' | 'idx'): string {
  const name = `${table}_${columns.join('_')}`;
  return `${name.slice(0, 63 - suffix.length - 1)}_${suffix}`;
}

/** What the Prisma schema says the database must be, in the shape `readDatabaseShape` reports. */
export async function schemaShape(path = SCHEMA_PATH): Promise<DatabaseShape> {
  const dmmf = await internals.getDMMF({ datamodel: await readFile(path, 'utf8') });
  const { models, enums, indexes } = dmmf.datamodel;
  const shape: DatabaseShape = { enums: {}, tables: {} };
  const enumNames = new Map(enums.map((e) => [e.name, e.dbName ?? e.name]));
  for (const e of enums) shape.enums[e.dbName ?? e.name] = e.values.map((v) => v.dbName ?? v.name);

  const tableOf = new Map(models.map((m) => [m.name, m.dbName ?? m.name]));
  for (const model of models) {
    const table: TableShape = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: [] };
    const column = new Map(model.fields.map((f) => [f.name, f.dbName ?? f.name]));
    for (const field of model.fields) {
      if (field.kind === 'scalar' || field.kind === 'enum') table.columns[column.get(field.name)!] = columnOf(field, enumNames);
      if (field.isId) table.primaryKey = [column.get(field.name)!];
      if (field.kind === 'object' && field.relationFromFields?.length) {
        const from = field.relationFromFields.map((f) => column.get(f)!);
        const target = models.find((m) => m.name === field.type)!;
        const targetColumn = new Map(target.fields.map((f) => [f.name, f.dbName ?? f.name]));
        const to = (field.relationToFields ?? []).map((f) => targetColumn.get(f)!);
        const required = field.relationFromFields.some((f) => model.fields.find((x) => x.name === f)?.isRequired);
        const onDelete = (field.relationOnDelete ?? (required ? 'Restrict' : 'SetNull')).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
        table.foreignKeys.push(`(${from.join(', ')}) → ${tableOf.get(field.type)}(${to.join(', ')}) on delete ${onDelete}`);
      }
    }
    if (model.primaryKey) table.primaryKey = model.primaryKey.fields.map((f) => column.get(f)!);
    for (const index of indexes.filter((i) => i.model === model.name && (i.type === 'unique' || i.type === 'normal'))) {
      const columns = index.fields.map((f) => column.get(f.name)!);
      const name = index.dbName ?? defaultIndexName(model.dbName ?? model.name, columns, index.type === 'unique' ? 'key' : 'idx');
      table.indexes[name] = indexSignature(index.type === 'unique', columns, index.fields.map((f) => f.sortOrder === 'desc'));
    }
    table.foreignKeys.sort();
    shape.tables[model.dbName ?? model.name] = table;
  }
  return shape;
}

/** Every difference between two shapes, in words; empty when they agree. */
export function shapeDifferences(expected: DatabaseShape, actual: DatabaseShape): string[] {
  const out: string[] = [];
  const compare = (where: string, want: unknown, got: unknown) => {
    if (JSON.stringify(want) !== JSON.stringify(got)) out.push(`${where}: the schema says ${JSON.stringify(want)}, the migrations built ${JSON.stringify(got)}`);
  };
  const keys = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const name of keys(expected.enums, actual.enums)) compare(`enum ${name}`, expected.enums[name], actual.enums[name]);
  for (const name of keys(expected.tables, actual.tables)) {
    const want = expected.tables[name];
    const got = actual.tables[name];
    if (!want || !got) {
      compare(`table ${name}`, want ? 'present' : 'absent', got ? 'present' : 'absent');
      continue;
    }
    for (const col of keys(want.columns, got.columns)) compare(`column ${name}.${col}`, want.columns[col], got.columns[col]);
    compare(`primary key of ${name}`, want.primaryKey, got.primaryKey);
    for (const index of keys(want.indexes, got.indexes)) compare(`index ${index} on ${name}`, want.indexes[index], got.indexes[index]);
    compare(`foreign keys of ${name}`, want.foreignKeys, got.foreignKeys);
  }
  return out;
}
