import type { FastifyInstance } from 'fastify';
import { chatTranscripts, transcriptRoutes } from './chat.transcript';

/** Transcripts: a conversation mailed to its visitor's confirmed address, asked by the visitor or staff. */
export async function transcript(app: FastifyInstance): Promise<void> {
  await app.register(transcriptRoutes, { transcripts: chatTranscripts(app) });
}
