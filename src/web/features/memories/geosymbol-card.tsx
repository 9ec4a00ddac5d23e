import { Heart, MapPin, Sparkles } from 'lucide-react';
import type { Geosymbol } from '../../../contract/memories.ts';
import { Chip } from '../../components/ui/chip.tsx';

const PRIVACY_LABEL: Record<Geosymbol['privacy_level'], string> = { public: 'Public', community: 'Community', private: 'Private' };

/** The facts of a forged geosymbol: symbol, type, place, difficulty, resonance, reward, trigger, overlay and codex. */
export function GeosymbolDetails({ g }: { g: Geosymbol }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <Chip tone="accent">{g.type}</Chip>
        <Chip>{PRIVACY_LABEL[g.privacy_level]}</Chip>
        <Chip>Difficulty: {g.difficulty}</Chip>
      </div>
      <h3 className="text-xl font-bold" data-testid="geosymbol-symbol">
        {g.symbol}
      </h3>
      <p className="flex items-center gap-1 text-sm text-muted-foreground">
        <MapPin className="h-4 w-4" aria-hidden />
        {g.placeName ? `${g.placeName} (from “${g.location}”)` : `${g.location} (not on the map)`}
      </p>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-lg bg-muted p-2">
          <dt className="text-xs text-muted-foreground">Emotional resonance</dt>
          <dd className="font-semibold" data-testid="geosymbol-resonance">
            {g.emotional_resonance}/10
          </dd>
        </div>
        <div className="rounded-lg bg-muted p-2">
          <dt className="text-xs text-muted-foreground">Reward</dt>
          <dd className="font-semibold">{g.reward.points} points</dd>
        </div>
      </dl>
      <div>
        <h4 className="text-sm font-semibold">Story trigger</h4>
        <p className="text-sm" data-testid="geosymbol-trigger">
          {g.story_trigger}
        </p>
      </div>
      <div>
        <h4 className="flex items-center gap-1 text-sm font-semibold">
          <Sparkles className="h-4 w-4 text-primary" aria-hidden /> AR overlay
        </h4>
        <p className="text-sm">{g.AR_overlay}</p>
      </div>
      {g.linked_codex.length > 0 && (
        <div>
          <h4 className="text-sm font-semibold">Linked codex</h4>
          <ul className="mt-1 space-y-1 text-sm">
            {g.linked_codex.map((c, i) => (
              <li key={`${c.kind}-${c.name}-${i}`}>
                <span className="font-medium">{c.name}</span> <span className="text-muted-foreground">· {c.detail}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="text-xs text-muted-foreground">
        Forged by {g.author} with the {g.metadata.generator === 'built-in' ? 'built-in engine' : `${g.metadata.generator} model`} ·{' '}
        <Heart className="inline h-3 w-3" aria-hidden /> {g.metadata.communityVotes}
      </p>
    </div>
  );
}
