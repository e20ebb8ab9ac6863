const UPDATED = 'January 2026';

export function TermsOfServicePage() {
  return (
    <article className="legal narrow">
      <h1>Terms of Service</h1>
      <p className="muted">Last updated {UPDATED}</p>
      <h2>1. The service</h2>
      <p>
        Prodshot turns product photos you upload into marketing images. You need an account to use it, and you are
        responsible for what happens under your account.
      </p>
      <h2>2. Your content</h2>
      <p>
        You keep every right in the photos you upload and the images made from them. You confirm that you may use the
        photos you upload, and you give us the permission needed to store and process them to provide the service.
      </p>
      <h2>3. Subscriptions and credits</h2>
      <p>
        Plans renew monthly until cancelled. Each generated image uses one credit. Subscription credits reset at each
        billing period; add-on credits do not expire. Plan changes take effect at the start of the next billing cycle.
      </p>
      <h2>4. Acceptable use</h2>
      <p>
        Do not upload content that is unlawful, that infringes others&apos; rights, or that tries to harm the service or
        other users.
      </p>
      <h2>5. Liability</h2>
      <p>
        The service is provided as is. To the extent the law allows, our liability is limited to the amount you paid in
        the last twelve months.
      </p>
      <h2>6. Contact</h2>
      <p>Questions about these terms: legal@prodshot.example.</p>
    </article>
  );
}

export function PrivacyPolicyPage() {
  return (
    <article className="legal narrow">
      <h1>Privacy Policy</h1>
      <p className="muted">Last updated {UPDATED}</p>
      <h2>What we collect</h2>
      <p>
        Your name and email address from your sign-in provider, the photos you upload, the images generated from them,
        and your subscription and credit history.
      </p>
      <h2>How we use it</h2>
      <p>
        Only to provide the service: to store your uploads, generate images, bill your plan and show you your history.
        We do not sell personal data.
      </p>
      <h2>Processors</h2>
      <p>
        Sign-in is handled by our authentication provider and card payments by our payment provider; each receives only
        what it needs.
      </p>
      <h2>Retention</h2>
      <p>Deleting an upload deletes its stored files. Closing your account deletes your data within 30 days.</p>
      <h2>Your rights</h2>
      <p>You can ask for a copy of your data or its deletion at privacy@prodshot.example.</p>
    </article>
  );
}
