import { z } from 'zod';

/** The commands the admin assistant knows (its allow-list); anything else is never run. */
export const COMMAND_TYPES = [
  'health_check',
  'database_status',
  'error_logs',
  'source_status',
  'pending_review',
  'events_by_category',
  'user_points',
  'clear_cache',
  'restart_services',
  'emergency_repair',
  'run_source',
  'approve_event',
  'reject_event',
] as const;
export const CommandType = z.enum(COMMAND_TYPES);
export type CommandType = z.infer<typeof CommandType>;

/** One earlier chat message the client sends along (spec: the last 5). Only the admin's own lines are ever read as requests. */
export const AssistantContextMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string().max(8000),
});

/** POST /api/admin/ai-chat (spec section 7): the admin chat sends the last 5 messages and the user id; the console sends healthData. */
export const AssistantChatRequest = z.object({
  message: z.string().trim().min(1, 'must not be empty').max(2000),
  context: z
    .object({
      messages: z.array(AssistantContextMessage).max(5).optional(),
      userId: z.string().max(100).optional(),
      /** What the console's health panel showed; informational only. */
      healthData: z.unknown().optional(),
    })
    .optional(),
  /** Confirms a changing command proposed earlier: single use, five minutes, bound to the admin who got it. */
  confirmToken: z.string().min(16).max(200).optional(),
});
export type AssistantChatRequest = z.infer<typeof AssistantChatRequest>;

export const ASSISTANT_ACTIONS = ['executed', 'proposed', 'confirmed', 'help', 'unresolved', 'failed'] as const;

export const AssistantChatResponse = z.object({
  /** Plain text for the chat bubble; data read from events, feeds or users appears quoted. */
  response: z.string(),
  /** The command's typed result (what it read or did), or null. */
  commandResult: z.record(z.string(), z.unknown()).nullable(),
  commandExecuted: z.boolean(),
  commandType: CommandType.nullable(),
  metadata: z.object({
    action: z.enum(ASSISTANT_ACTIONS),
    /** Present when a changing command waits for the admin's confirmation. */
    confirmToken: z.string().optional(),
    /** When the confirmation stops being accepted (ISO). */
    expiresAt: z.string().optional(),
    /** Which engine understood the request. */
    engine: z.enum(['built-in', 'llm']),
  }),
});
export type AssistantChatResponse = z.infer<typeof AssistantChatResponse>;

/** How long a proposed changing command may be confirmed. */
export const CONFIRM_TTL_MS = 5 * 60 * 1000;
