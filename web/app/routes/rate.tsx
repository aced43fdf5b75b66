import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { chatRatingValueSchema, ratingLinkPage } from '../../../api/contract/chat-rating';
import { PageTitle } from '../../components/ui/page-title';
import { RatingLinkForm } from '../../features/chat/components/rating-link-form';

/** Where a mailed rating link lands (`/rate?token=...&rating=good|bad`): it confirms, and only its button rates. */
export function RatePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Read once and kept in memory only, as the reset page does: the address loses the token at once.
  const [token] = useState(() => params.get('token')?.trim() ?? '');
  const [initial] = useState(() => chatRatingValueSchema.safeParse(params.get('rating')).data ?? null);
  const addressHasToken = params.has('token');
  useEffect(() => {
    if (addressHasToken) void navigate(ratingLinkPage, { replace: true });
  }, [addressHasToken, navigate]);
  return (
    <div className="bg-slate-50 px-4 py-16">
      <PageTitle title="Rate Your Chat" />
      <div className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Rate Your Chat</h1>
        {token ? (
          <>
            <p className="mt-1 text-sm text-slate-600">Thanks for chatting with us. Your answer goes straight to our team.</p>
            <RatingLinkForm token={token} initial={initial} />
          </>
        ) : (
          <p className="mt-3 text-slate-700" role="alert">
            This rating link is not valid. Please use the link in your email.
          </p>
        )}
      </div>
    </div>
  );
}
