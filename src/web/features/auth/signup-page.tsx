import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { SignupBody } from '../../../contract/auth.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { useCityConfig } from '../events/events.queries.ts';
import { loginUrl } from './auth-gate.tsx';
import { AuthFrame, Field, fieldErrors } from './auth-form.tsx';
import { formError, useAuthSubmit } from './use-auth-submit.ts';

export default function SignupPage() {
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A new account goes through the short interests step (skippable) on its way to returnTo.
  const submit = useAuthSubmit<SignupBody>('/api/auth/signup', setErrors, (to) => `/welcome?returnTo=${encodeURIComponent(to)}`);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const returnTo = typeof window === 'undefined' ? '' : window.location.search;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = SignupBody.safeParse({ ...form, email: form.email.trim() });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues));
    setErrors({});
    submit.mutate(parsed.data);
  }

  const serverError = formError(submit.error);
  const { data: config } = useCityConfig();
  return (
    <AuthFrame
      title="Create your account"
      subtitle="Join your city's events, favourite what you love and earn points for taking part."
      footer={
        <>
          Already have an account?{' '}
          <Link href={`/login${returnTo}`} className="font-semibold text-primary underline">
            Sign in
          </Link>
        </>
      }
    >
      {config?.oidc ? (
        // Accounts come from the city's sign-in provider: there is no password to choose here.
        <div className="grid gap-3">
          <p className="text-sm text-muted-foreground">Accounts on this Townbeat are made with your organisation's sign-in. Continue there to create yours.</p>
          <a href={loginUrl('/')} className={buttonClass('primary', 'w-full')}>
            Continue to sign-in
          </a>
        </div>
      ) : (
      <form onSubmit={onSubmit} noValidate>
        <div className="grid gap-x-3 sm:grid-cols-2">
          <Field name="firstName" label="First name" autoComplete="given-name" value={form.firstName} error={errors.firstName} onChange={set('firstName')} />
          <Field name="lastName" label="Last name" autoComplete="family-name" value={form.lastName} error={errors.lastName} onChange={set('lastName')} />
        </div>
        <Field name="email" label="Email" type="email" autoComplete="email" value={form.email} error={errors.email} onChange={set('email')} />
        <Field
          name="password"
          label="Password (8 to 128 characters)"
          type="password"
          autoComplete="new-password"
          value={form.password}
          error={errors.password}
          onChange={set('password')}
        />
        {serverError && (
          <p role="alert" className="mb-4 rounded-md bg-destructive/10 p-3 text-sm text-destructive">
            {serverError}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={submit.isPending}>
          {submit.isPending ? 'Creating your account…' : 'Create account'}
        </Button>
      </form>
      )}
    </AuthFrame>
  );
}
