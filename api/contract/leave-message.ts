import { z } from 'zod';
import { chatMessageTextSchema } from './chat';
import { emailField, requiredText } from './common';

/**
 * The widget's leave-a-message form (DESIGN 10), checked in the browser before it is sent as the
 * conversation's first message (`chat:send` / `POST /api/chat-message` with senderName and senderEmail,
 * which the server checks again by its own schema).
 */
export const leaveMessageSchema = z.object({
  name: requiredText(1, 'Please enter your name', 100, 'Name'),
  email: emailField,
  message: chatMessageTextSchema,
});
export type LeaveMessageInput = z.input<typeof leaveMessageSchema>;
export type LeaveMessageField = keyof LeaveMessageInput;
