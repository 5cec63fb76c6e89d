import { buildSchema, GraphQLError } from 'graphql';
import { describe, expect, test, vi } from 'vitest';
import { errorOfResult, familyOf, restError } from '../../src/platform/rest/errors.ts';
import { Conflict, Forbidden, InvalidInput, NotFound, PayloadTooLarge, RateLimited, Unauthenticated, Upstream } from '../../src/platform/errors.ts';

const log = { error: vi.fn() } as any;

describe('rest-compat error table', () => {
  test.each([
    [InvalidInput.field('limit', 'must be an integer'), 400, 400],
    [new Unauthenticated(), 401, 401],
    [new Forbidden("API key lacks the required scope 'read'"), 403, 403],
    [new NotFound('invoice'), 404, 404],
    [new Conflict('same correlation_id, different body'), 409, 409],
    [new PayloadTooLarge('file is larger than 25 MB'), 400, 413],
    [new RateLimited(12), 429, 429],
    [new Upstream('extraction failed'), 502, 500],
  ])('%s → v1 %i, legacy %i', (err, v1, legacy) => {
    const a = restError('v1', err, log);
    expect(a.status).toBe(v1);
    expect(a.body).toMatchObject({ error: err.message });
    expect(a.body).not.toHaveProperty('success');
    const b = restError('legacy', err, log);
    expect(b.status).toBe(legacy);
    expect(b.body).toMatchObject({ success: false, error: err.message });
    expect(restError('adapter', err, log).status).toBe(v1);
  });

  test('429 carries retryAfter (seconds) in the body and the Retry-After header', () => {
    const r = restError('v1', new RateLimited(7), log);
    expect(r.body).toEqual({ error: 'rate limit exceeded', retryAfter: 7 });
    expect(r.headers['retry-after']).toBe('7');
  });

  test('unknown errors are masked: 500, a correlation id in body and log, no message or stack', () => {
    log.error.mockClear();
    const r = restError('v1', new Error('connection refused at 10.0.0.3'), log);
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/^internal server error \(correlation id [0-9a-f-]{36}\)$/);
    expect(JSON.stringify(r.body)).not.toMatch(/10\.0\.0\.3|Error:/);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ correlationId: r.body.correlationId }), expect.any(String));
    expect(restError('legacy', new Error('x'), log).body).toMatchObject({ success: false });
  });

  test('families by path', () => {
    expect(familyOf('/api/v1/partner/vendors?limit=1')).toBe('v1');
    expect(familyOf('/api/v1/partner/extract')).toBe('adapter');
    expect(familyOf('/api/partner/usage')).toBe('legacy');
    expect(familyOf('/graphql')).toBeUndefined();
  });

  test('variable coercion errors become 400s naming the variable; execution errors keep their cause', () => {
    const coercion = errorOfResult(new GraphQLError('Variable "$tenantId" got invalid value "x"; Value is not a valid UUID: x'));
    expect(coercion).toBeInstanceOf(InvalidInput);
    expect((coercion as Error).message).toBe('tenantId must be a UUID (got "x")');
    const cause = new NotFound('tenant');
    expect(errorOfResult(new GraphQLError('tenant not found', { path: ['vendors'], originalError: cause }))).toBe(cause);
    const crash = new TypeError('boom');
    expect(errorOfResult(new GraphQLError('boom', { path: ['vendors'], originalError: crash }))).toBe(crash);
  });

  test("coercion problems are said in the REST field's words: enums list their values, lists name the element", () => {
    const schema = buildSchema('enum Role { owner, manager } type Query { a(role: Role): Int }');
    const said = (message: string) => (errorOfResult(new GraphQLError(message), schema) as Error).message;
    expect(said('Variable "$role" got invalid value "boss"; Value "boss" does not exist in "Role" enum.')).toBe(
      'role must be one of owner, manager (got "boss")',
    );
    expect(said('Variable "$role" got invalid value "Owner"; Value "Owner" does not exist in "Role" enum. Did you mean the enum value "owner"?')).toBe(
      'role must be one of owner, manager (got "Owner")',
    );
    // A type the schema does not know keeps GraphQL's words.
    expect(said('Variable "$x" got invalid value "y"; Value "y" does not exist in "Other" enum.')).toBe('x: Value "y" does not exist in "Other" enum.');
    expect(said('Variable "$events" got invalid value 5 at "events[1]"; String cannot represent a non string value: 5')).toBe(
      'events[1] must be a string (got 5)',
    );
    expect(said('Variable "$limit" got invalid value "5"; Int cannot represent non-integer value: "5"')).toBe('limit must be an integer (got "5")');
    expect(said('Variable "$q" got invalid value "ten"; Float cannot represent non numeric value: "ten"')).toBe('q must be a number (got "ten")');
    expect(said('Variable "$on" got invalid value "yes"; Boolean cannot represent a non boolean value: "yes"')).toBe('on must be true or false (got "yes")');
    expect(said('Variable "$input" got invalid value null at "input.name"; Expected non-nullable type "String!" not to be null.')).toBe(
      'input.name is required',
    );
  });

  test("graphql-scalars' problems (uuid, email, dates) are said the same way", () => {
    const said = (message: string) => (errorOfResult(new GraphQLError(message)) as Error).message;
    expect(said('Variable "$employeeId" got invalid value "x"; Value is not a valid UUID: x')).toBe('employeeId must be a UUID (got "x")');
    expect(said('Variable "$email" got invalid value 5; Value is not string: 5')).toBe('email must be a string (got 5)');
    expect(said('Variable "$email" got invalid value "bad"; Value is not a valid email address: bad')).toBe('email must be an email address (got "bad")');
    expect(said('Variable "$startDate" got invalid value "2026-02-30"; Date cannot represent an invalid date-string 2026-02-30.')).toBe(
      'startDate must be a date YYYY-MM-DD (got "2026-02-30")',
    );
    expect(said('Variable "$endDate" got invalid value 5; Date cannot represent non string type 5')).toBe('endDate must be a date YYYY-MM-DD (got 5)');
    expect(said('Variable "$day" got invalid value "1800-01-01"; Date must be a day from 1900-01-01 to 2999-12-31 (got 1800-01-01)')).toBe(
      'day must be a day from 1900-01-01 to 2999-12-31 (got 1800-01-01)',
    );
    expect(said('Variable "$at" got invalid value "soon"; DateTime cannot represent an invalid date-time-string soon.')).toBe(
      'at must be a date and time in ISO 8601 (got "soon")',
    );
  });
});
