import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('applies the defaults of the embedded set-up', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 5000, DATA_DIR: './data', NODE_ENV: 'development', ADMIN_EMAILS: [] });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('names the variable when a value is bad', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/^Invalid environment variable PORT: /);
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('requires SESSION_SECRET in production only', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: is required when NODE_ENV=production/);
    expect(parseEnv({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) }).SESSION_SECRET).toHaveLength(40);
  });

  it('requires the three OpenID Connect settings together', () => {
    expect(() => parseEnv({ OIDC_ISSUER_URL: 'https://id.example' })).toThrow(/OIDC_ISSUER_URL/);
  });

  it('splits and lower-cases ADMIN_EMAILS', () => {
    expect(parseEnv({ ADMIN_EMAILS: ' A@x.org, b@y.org ,' }).ADMIN_EMAILS).toEqual(['a@x.org', 'b@y.org']);
  });
});
