import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { SignupBody } from '../../../contract/auth.ts';
import type { Clock } from '../../clock.ts';
import { conflict, rateLimited, unauthorized } from '../../errors.ts';
import type { UserRow } from '../users/users.table.ts';
import type { AuthRepository } from './auth.repository.ts';
import { createKeyedLimiter, type RateLimitCounter } from './rate-limiter.ts';

export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;
const INVALID_LOGIN = 'Invalid email or password';
/** Said only after the right password (or the provider's word), so it reveals nothing to a guesser. */
export const ACCOUNT_DISABLED = 'This account is disabled';

// argon2id with the library's defaults (19 MiB, t=2); verified against a dummy hash
// when the account does not exist so timing does not reveal which emails are registered.
const ARGON_OPTS = { algorithm: 2 } as const;
let dummyHash: Promise<string> | undefined;

export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('base64url');

export interface SessionInfo {
  idHash: string;
  user: UserRow;
}

/** Accounts and sessions: the rules around the auth repository. */
export function createAuthService(deps: { repo: AuthRepository; clock: Clock; adminEmails: string[]; limits: RateLimitCounter }) {
  const { repo, clock } = deps;
  const isAdminEmail = (email: string) => deps.adminEmails.includes(email.toLowerCase());
  // Per account, whichever worker or instance the attempts reach (counted in the database).
  const accountLimiter = createKeyedLimiter({ counter: deps.limits, prefix: 'account', max: 10, windowMs: 15 * 60 * 1000, now: () => clock.now() });

  async function limitAccount(email: string) {
    const wait = await accountLimiter.hit(email.toLowerCase());
    if (wait > 0) throw rateLimited('Too many sign-in attempts for this account. Try again later.', wait);
  }

  /** A disabled account (PATCH /api/admin/users/:id) cannot sign in by any route. */
  function refuseDisabled(user: UserRow): UserRow {
    if (user.disabledAt) throw unauthorized(ACCOUNT_DISABLED);
    return user;
  }

  async function promoteIfListed(user: UserRow): Promise<UserRow> {
    if (user.role !== 'admin' && isAdminEmail(user.email)) {
      return (await repo.updateUser(user.id, { role: 'admin' })) ?? user;
    }
    return user;
  }

  return {
    async signup(input: SignupBody): Promise<UserRow> {
      await limitAccount(input.email);
      if (await repo.findUserByEmail(input.email)) throw conflict('An account with this email already exists');
      const passwordHash = await hash(input.password, ARGON_OPTS);
      const user = await repo.insertUser(
        {
          email: input.email.trim(),
          passwordHash,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
        },
        isAdminEmail(input.email),
      );
      if (!user) throw conflict('An account with this email already exists');
      return user;
    },

    async login(email: string, password: string): Promise<UserRow> {
      await limitAccount(email);
      const user = await repo.findUserByEmail(email.trim());
      if (!user?.passwordHash) {
        dummyHash ??= hash('not-a-real-password', ARGON_OPTS);
        await verify(await dummyHash, password).catch(() => false);
        throw unauthorized(INVALID_LOGIN);
      }
      const ok = await verify(user.passwordHash, password).catch(() => false);
      if (!ok) throw unauthorized(INVALID_LOGIN);
      await accountLimiter.reset(email.toLowerCase());
      return promoteIfListed(refuseDisabled(user));
    },

    /**
     * Finds or creates the user an OpenID provider vouched for; links by verified email.
     * `created` says the account is new (it goes through the welcome step, as a local sign-up does).
     */
    async upsertOidcUser(claims: {
      sub: string;
      email: string;
      emailVerified: boolean;
      firstName?: string;
      lastName?: string;
      picture?: string;
    }): Promise<{ user: UserRow; created: boolean }> {
      const bySubject = await repo.findUserByOidcSubject(claims.sub);
      if (bySubject) return { user: await promoteIfListed(refuseDisabled(bySubject)), created: false };
      if (!claims.emailVerified) throw unauthorized('Your sign-in provider has not verified your email address');
      const byEmail = await repo.findUserByEmail(claims.email);
      if (byEmail) {
        refuseDisabled(byEmail);
        const linked = await repo.updateUser(byEmail.id, { oidcSubject: claims.sub });
        return { user: await promoteIfListed(linked ?? byEmail), created: false };
      }
      const created = await repo.insertUser(
        {
          email: claims.email,
          oidcSubject: claims.sub,
          firstName: claims.firstName ?? null,
          lastName: claims.lastName ?? null,
          profileImageUrl: claims.picture ?? null,
        },
        isAdminEmail(claims.email),
      );
      if (!created) throw conflict('An account with this email already exists');
      return { user: created, created: true };
    },

    /** Starts a fresh session (a new id on every sign-in); returns the cookie value. */
    async createSession(userId: string, userAgent: string | undefined): Promise<string> {
      const id = randomBytes(32).toString('base64url');
      const now = clock.now();
      await repo.insertSession({
        idHash: hashSessionId(id),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
        userAgent: userAgent?.slice(0, 300) ?? null,
      });
      return id;
    },

    /** The live session for a cookie value, or undefined when absent, idle too long or expired. */
    async resolveSession(id: string): Promise<SessionInfo | undefined> {
      const idHash = hashSessionId(id);
      const now = clock.now();
      const row = await repo.findLiveSession(idHash, now);
      if (!row) return undefined;
      if (row.user.disabledAt) {
        // Disabling deletes the sessions; this covers one created in a race with it.
        await repo.deleteSession(idHash);
        return undefined;
      }
      if (now.getTime() - row.session.lastSeenAt.getTime() > SESSION_IDLE_MS) {
        await repo.deleteSession(idHash);
        return undefined;
      }
      if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touchSession(idHash, now);
      return { idHash, user: row.user };
    },

    async endSession(idHash: string) {
      await repo.deleteSession(idHash);
    },

    countUsers: () => repo.countUsers(),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
