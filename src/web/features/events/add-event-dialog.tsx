import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { ImportUrlResponse } from '../../../contract/ingestion.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ApiError, apiJson } from '../../lib/api-client.ts';

/** POST /api/events/import-url: a member sends the page of an event Townbeat does not list. */
export function useImportEvent() {
  const client = useQueryClient();
  return useMutation<ImportUrlResponse, Error, string>({
    mutationFn: (url) => apiJson<ImportUrlResponse>('POST', '/api/events/import-url', { url }),
    // The admin's review queue and counts, if this member is an admin.
    onSuccess: () => void client.invalidateQueries({ queryKey: ['/api/admin/events/pending'] }),
  });
}

/**
 * "Add an event": a member pastes the link of an event's page (schema.org Event data) or of its
 * .ics calendar; the server reads it and sends the event to review (decisions: contributions wait
 * for review), or says which event Townbeat already has.
 */
export function AddEventDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [answer, setAnswer] = useState<ImportUrlResponse | null>(null);
  const send = useImportEvent();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!url.trim() || send.isPending) return;
    setAnswer(null);
    send.mutate(url.trim(), { onSuccess: setAnswer });
  };
  const close = (o: boolean) => {
    onOpenChange(o);
    if (!o) {
      setUrl('');
      setAnswer(null);
      send.reset();
    }
  };
  const error = send.error ? (send.error instanceof ApiError ? (send.error.serverMessage ?? send.error.message) : 'The link could not be sent. Please try again.') : null;

  return (
    <Dialog open={open} onOpenChange={close} title="Add an event" description="Paste the link of an event's page or its calendar (.ics). An admin checks it before it is listed.">
      <form onSubmit={submit} className="space-y-3" noValidate>
        <div className="space-y-1">
          <label htmlFor={`${id}-url`} className="text-sm font-semibold">
            Link to the event
          </label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://"
            maxLength={2000}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="min-h-11 w-full rounded-lg border border-border bg-background px-3 text-base outline-none focus:border-ring"
          />
        </div>
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        {answer && (
          <div role="status" data-testid="add-event-answer" className="rounded-lg border border-success/40 bg-success-soft p-3 text-sm">
            <p className="font-medium">{answer.message}</p>
            {answer.eventId && (
              <Link href={`/events/${answer.eventId}`} onClick={() => close(false)} className="mt-1 inline-flex min-h-11 items-center gap-2 font-semibold text-primary underline-offset-4 hover:underline">
                View event page
                <ExternalLink className="h-4 w-4" aria-hidden />
              </Link>
            )}
          </div>
        )}
        <div className="flex justify-end gap-2">
          <Button type="submit" disabled={!url.trim() || send.isPending}>
            <Send className="h-4 w-4" aria-hidden />
            {send.isPending ? 'Reading the page…' : 'Send for review'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
