import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.js';
import { ApiKeysSection } from '../features/api-keys/index.js';
import { WebhooksSection } from '../features/webhooks/index.js';
import { CancelSubscriptionDialog, SubscriptionCard, useCancelFlow } from '../features/credits/subscription-card.js';
import { useProfile } from '../features/profile/api/get-profile.js';
import { ProfileForm, type ProfileMessage } from '../features/profile/profile-form.js';
import { useImages } from '../features/uploads/api/get-images.js';
import { DeleteUploadDialog, useDeleteUpload } from '../features/uploads/delete-upload.js';
import { RecentUploads } from '../features/uploads/recent-uploads.js';
import { toUploadItem } from '../features/uploads/upload-items.js';
import './profile.css';

const PROFILE_UPLOADS = 6;

export function ProfilePage() {
  const profile = useProfile();
  const images = useImages();
  const [message, setMessage] = useState<ProfileMessage | null>(null);
  const cancelling = useCancelFlow();
  const removal = useDeleteUpload(() =>
    setMessage({ type: 'error', text: 'Failed to delete image. Please try again.' }),
  );

  if (profile.isPending) return <Spinner label="Loading profile" fullPage />;
  const uploads = (images.data?.data ?? []).map(toUploadItem).slice(0, PROFILE_UPLOADS);

  return (
    <div className="profile">
      <header className="page-header">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1>Your Profile</h1>
      </header>
      {profile.isError && (
        <p className="form-error" role="alert">
          Failed to load profile data. Please try again.
        </p>
      )}
      <div className="profile-grid">
        <ProfileForm profile={profile.data} message={message} onMessage={setMessage} />
        <SubscriptionCard flow={cancelling} />
      </div>

      <ApiKeysSection />
      <WebhooksSection />

      <RecentUploads uploads={uploads} onDelete={removal.ask} />

      <CancelSubscriptionDialog flow={cancelling} />
      <DeleteUploadDialog flow={removal} />
    </div>
  );
}
