import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { buttonClasses } from '../../components/ui/button';
import { ResetPasswordForm } from '../../features/dealer/components/reset-password-form';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Read once and kept in memory only (not in history state, which survives a reload): the address
  // loses the token at once, so a reload, bookmark, screenshot or Referer no longer carries it. A reload
  // then finds no token and says the link is invalid.
  const [token] = useState(() => params.get('token')?.trim() ?? '');
  const addressHasToken = params.has('token');
  useEffect(() => {
    if (addressHasToken) void navigate('/reset-password', { replace: true });
  }, [addressHasToken, navigate]);
  return (
    <div className="bg-slate-50 px-4 py-16">
      <div className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Choose a New Password</h1>
        {token ? (
          <>
            <p className="mt-1 mb-6 text-sm text-slate-600">Enter a new password for your dealer account.</p>
            <ResetPasswordForm token={token} />
          </>
        ) : (
          <>
            <p className="mt-3 text-slate-700" role="alert">
              This reset link is invalid or has expired. Request a new one from the dealer login page.
            </p>
            <Link to="/dealer-login" className={buttonClasses('brand', 'md', 'mt-6 w-full')}>
              Back to Login
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
