import type { DealerLoginInput, ForgotPasswordInput, ResetPasswordInput, SessionInfo } from '../../../api/contract/auth';
import { api } from '../../lib/api-client';

export const dealerLogin = (input: DealerLoginInput) => api.post<unknown>('/api/login', input);
export const dealerLogout = () => api.post<unknown>('/api/logout', {});
export const requestPasswordReset = (input: ForgotPasswordInput) => api.post<{ message: string }>('/api/forgot-password', input);
export const resetPassword = (input: ResetPasswordInput) => api.post<unknown>('/api/reset-password', input);
export const fetchSession = (signal?: AbortSignal) => api.get<SessionInfo>('/api/session', { signal });
