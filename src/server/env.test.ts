import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('applies the defaults of the embedded set-up', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 5000, DATA_DIR: './data', NODE_ENV: 'development', ADMIN_EMAILS: [] });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('schedules backups daily, kept a week, by default; at most every 24 days (a timer goes no further)', () => {
    expect(parseEnv({})).toMatchObject({ BACKUP_EVERY_HOURS: 24, BACKUP_KEEP_DAYS: 7 });
    expect(parseEnv({ BACKUP_EVERY_HOURS: '0' }).BACKUP_EVERY_HOURS).toBe(0);
    expect(() => parseEnv({ BACKUP_EVERY_HOURS: '600' })).toThrow(/^Invalid environment variable BACKUP_EVERY_HOURS: /);
    expect(() => parseEnv({ BACKUP_KEEP_DAYS: '0' })).toThrow(/BACKUP_KEEP_DAYS/);
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

  it('leaves the language model unset by default, with gpt-4o-mini as the model name', () => {
    const env = parseEnv({});
    expect(env.LLM_BASE_URL).toBeUndefined();
    expect(env.LLM_API_KEY).toBeUndefined();
    expect(env.LLM_MODEL).toBe('gpt-4o-mini');
  });

  it('reads an OpenAI-compatible endpoint, its key and model', () => {
    const env = parseEnv({ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_API_KEY: 'sk-abc', LLM_MODEL: 'llama3.1:8b' });
    expect(env).toMatchObject({ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_API_KEY: 'sk-abc', LLM_MODEL: 'llama3.1:8b' });
    // Empty values count as unset.
    const blank = parseEnv({ LLM_BASE_URL: '', LLM_MODEL: '' });
    expect(blank.LLM_BASE_URL).toBeUndefined();
    expect(blank.LLM_MODEL).toBe('gpt-4o-mini');
  });

  it('refuses an LLM_BASE_URL that is not an http(s) URL', () => {
    expect(() => parseEnv({ LLM_BASE_URL: 'localhost:11434' })).toThrow(/^Invalid environment variable LLM_BASE_URL: must be an http:\/\/ or https:\/\/ URL/);
    expect(() => parseEnv({ LLM_BASE_URL: 'ftp://models.example/v1' })).toThrow(/LLM_BASE_URL/);
  });
});
