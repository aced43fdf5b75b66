import type { DealerLoginInput, ForgotPasswordInput, ResetPasswordInput, SessionInfo } from '../../../api/contract/auth';
import { api } from '../../lib/api-client';
import { apiPaths } from '../../../api/contract/paths';

export const dealerLogin = (input: DealerLoginInput) => api.post<unknown>(apiPaths.dealerLogin, input);
export const dealerLogout = () => api.post<unknown>(apiPaths.dealerLogout, {});
export const requestPasswordReset = (input: ForgotPasswordInput) => api.post<{ message: string }>(apiPaths.forgotPassword, input);
export const resetPassword = (input: ResetPasswordInput) => api.post<unknown>(apiPaths.resetPassword, input);
export const fetchSession = (signal?: AbortSignal) => api.get<SessionInfo>(apiPaths.session, { signal });
