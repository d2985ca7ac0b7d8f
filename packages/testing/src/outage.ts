import { randomBytes } from 'node:crypto';
import { sqlPool, type Db } from '@vp/db';

/**
 * Makes the first `times` (1) writes to `table` that match `when` (SQL over NEW and OLD) fail, as
 * they would with the database unavailable: a trigger that raises SQLSTATE 57P03 (cannot connect
 * now), counting with a sequence of its own.
 * `tried` says how many such writes were made so far, failed or not (a sequence is not rolled back);
 * `end` lets the next ones through, however many were meant to fail.
 */
export async function failWrites(
  db: Db, options: { table: string; on: 'INSERT' | 'UPDATE'; when: string; times?: number },
): Promise<{ tried: () => Promise<number>; end: () => Promise<void> }> {
  const name = `fail_writes_${randomBytes(6).toString('hex')}`;
  const pool = sqlPool(db);
  await pool.query(`
    CREATE SEQUENCE ${name};
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF nextval('${name}') <= ${options.times ?? 1} THEN RAISE EXCEPTION 'the database is unavailable' USING ERRCODE = '57P03'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER ${name} BEFORE ${options.on} ON ${options.table} FOR EACH ROW WHEN (${options.when}) EXECUTE FUNCTION ${name}();`);
  return {
    tried: async () => {
      const { rows } = await pool.query<{ tried: string }>(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS tried FROM ${name}`);
      return Number(rows[0]?.tried);
    },
    end: async () => {
      await pool.query(`SELECT setval('${name}', ${options.times ?? 1})`);
    },
  };
}
