/** One transaction on a pooled connection: committed when `fn` answers ok, rolled back when it answers a refusal or throws. */
import type { Pool, PoolConnection } from 'mysql2/promise';

export async function inTransaction<T extends { ok: boolean }>(pool: Pool, fn: (conn: PoolConnection) => Promise<T>): Promise<T> {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    const result = await fn(conn);
    if (result.ok) await conn.commit();
    else await conn.rollback();
    return result;
  } catch (e) {
    await conn.rollback().catch(() => undefined);
    throw e;
  } finally {
    conn.release();
  }
}

/** A positive BIGINT id as the tables write it; anything else names no row. */
export const SQL_ID = /^[1-9][0-9]{0,18}$/;
