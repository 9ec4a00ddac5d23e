import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { LoginBody } from '../../../contract/auth.ts';
import { Button } from '../../components/ui/button.tsx';
import { AuthFrame, Field, fieldErrors } from './auth-form.tsx';
import { formError, useAuthSubmit } from './use-auth-submit.ts';

export default function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = useAuthSubmit<LoginBody>('/api/auth/login', setErrors);
  const returnTo = typeof window === 'undefined' ? '' : window.location.search;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = LoginBody.safeParse({ email: email.trim(), password });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues));
    setErrors({});
    submit.mutate(parsed.data);
  }

  const serverError = formError(submit.error);
  return (
    <AuthFrame
      title="Sign in"
      subtitle="Welcome back. Sign in to save events and earn points."
      footer={
        <>
          New to Townbeat?{' '}
          <Link href={`/signup${returnTo}`} className="font-semibold text-primary underline">
            Create an account
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Field name="email" label="Email" type="email" autoComplete="email" value={email} error={errors.email} onChange={setEmail} />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={setPassword}
        />
        {serverError && (
          <p role="alert" className="mb-4 rounded-md bg-destructive/10 p-3 text-sm text-destructive">
            {serverError}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={submit.isPending}>
          {submit.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthFrame>
  );
}
