import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { scratchDatabase } from '../../../test/harness.js';
import { dataException } from './error-handler.js';

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22) caused by a client's value become a 400
 * naming the field. Each case takes the error PostgreSQL really raises for such a value (so the
 * message the field is located by is the server's own), and a request that carried it.
 */

const request = (body: unknown, query: unknown = {}, params: unknown = {}) => ({ body, query, params }) as unknown as FastifyRequest;

describe('data exceptions (class 22) as 400 request.invalid_value', () => {
  const scratch = scratchDatabase();
  const raised = async (text: string, values: unknown[] = []) => {
    const client = await scratch.pool.connect();
    try {
      await client.query('CREATE TEMP TABLE IF NOT EXISTS probe (short varchar(3), amount numeric(5, 2), n integer)');
      await client.query(text, values);
    } catch (error) {
      return error as { code: string; message: string };
    } finally {
      client.release();
    }
    throw new Error(`${text} did not fail`);
  };

  it('22021 invalid byte sequence (a NUL in text): names the text field that holds it', async () => {
    const error = await raised("SELECT convert_from('\\x610062'::bytea, 'UTF8')");
    expect(error.code).toBe('22021');
    const problem = dataException(error, request({ title: 'ok', catch: { notes: 'a\u0000b' } }));
    expect(problem).toMatchObject({ status: 400, code: 'request.invalid_value', errors: [{ pointer: '/catch/notes', in: 'body', detail: expect.stringContaining('U+0000') }] });
  });

  it('22P05 untranslatable character (NUL in jsonb): names the field, also in the query', async () => {
    const error = await raised(`SELECT '"a\\u0000b"'::jsonb`);
    expect(error.code).toBe('22P05');
    const problem = dataException(error, request(undefined, { q: 'x\uD800' }));
    expect(problem.errors).toEqual([{ pointer: '/q', in: 'query', detail: expect.stringContaining('unpaired UTF-16 surrogate') }]);
  });

  it('22001 string too long: names the first text longer than the column holds, with the length', async () => {
    const error = await raised("INSERT INTO probe (short) VALUES ('abcdef')");
    expect(error.code).toBe('22001');
    const problem = dataException(error, request({ code: 'ab', name: 'abcdef' }));
    expect(problem.errors).toEqual([{ pointer: '/name', in: 'body', detail: 'is longer than the 3 characters this field holds' }]);
  });

  it('22003 numeric out of range: the value PostgreSQL quotes, else a number outside the integer type', async () => {
    const quoted = await raised('SELECT $1::integer', ['99999999999']);
    expect(quoted.code).toBe('22003');
    expect(dataException(quoted, request({ count: 2, weight: 99999999999 })).errors).toEqual([{ pointer: '/weight', in: 'body', detail: 'is out of the range this field holds' }]);
    const unquoted = await raised('INSERT INTO probe (n) VALUES ($1::bigint)', [2 ** 40]);
    expect(unquoted).toMatchObject({ code: '22003', message: 'integer out of range' });
    expect(dataException(unquoted, request({ a: 5, n: 2 ** 40 })).errors).toEqual([{ pointer: '/n', in: 'body', detail: 'is out of the range this field holds' }]);
    const overflow = await raised('INSERT INTO probe (amount) VALUES (123456)');
    expect(overflow).toMatchObject({ code: '22003', message: 'numeric field overflow' });
    const unknown = dataException(overflow, request({ amount: 123456 }));
    expect(unknown).toMatchObject({ status: 400, code: 'request.invalid_value', detail: expect.stringContaining('out of the range') });
    expect(unknown.errors).toBeUndefined(); // the server does not say which value: no field is guessed
  });

  it('22007 invalid date-time syntax and 22008 date-time out of range: the value PostgreSQL quotes', async () => {
    const syntax = await raised('SELECT $1::timestamptz', ['2026-06-01Tnoon']);
    expect(syntax.code).toBe('22007');
    expect(dataException(syntax, request({}, { from: '2026-06-01Tnoon' })).errors).toEqual([{ pointer: '/from', in: 'query', detail: 'is not a date-time this field can hold' }]);
    const range = await raised('SELECT $1::timestamptz', ['2026-13-01']);
    expect(range.code).toBe('22008');
    expect(dataException(range, request({}, {}, { day: '2026-13-01' })).errors).toEqual([{ pointer: '/day', in: 'path', detail: 'is not a date-time this field can hold' }]);
  });

  it('other data exceptions: the quoted value when the request carries it, else a detail without a field', async () => {
    const division = await raised('SELECT 1 / 0');
    expect(division.code).toBe('22012');
    expect(dataException(division, request({ a: 0 }))).toMatchObject({ status: 400, code: 'request.invalid_value', errors: undefined });
    const syntax = await raised('SELECT $1::uuid', ['not-a-uuid']);
    expect(syntax.code).toBe('22P02');
    expect(dataException(syntax, request({ id: 'not-a-uuid' })).errors).toEqual([{ pointer: '/id', in: 'body', detail: 'has a value out of range or not valid for this field' }]);
  });
});
