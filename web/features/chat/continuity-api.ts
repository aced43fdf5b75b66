import { apiPaths, pathTo } from '../../../api/contract/paths';
import type { TranscriptAnswer } from '../../../api/contract/continuity';
import { api } from '../../lib/api-client';

/** The REST twin of `chat:seen`, for the poll path while the socket is down. */
export function postSeen(sessionId: string, upTo: number): Promise<{ visitorSeenSeq: number }> {
  return api.post(pathTo(apiPaths.chatSeen, { sessionId }), { upTo });
}

/** Opens a mailed conversation link's token: the conversation it names, now this browser's to read and answer. */
export function openChatLink(token: string): Promise<{ sessionId: string }> {
  return api.post(apiPaths.chatLinks, { token });
}

/** Mails the conversation to its own stored email; answers that address. */
export function requestTranscript(sessionId: string): Promise<TranscriptAnswer> {
  return api.post(pathTo(apiPaths.chatTranscript, { sessionId }), undefined);
}
