/** Who a request acts for, once authenticated: by session or by API key. */
export interface AuthUser {
  /** users.id (uuid): what every row of ours refers to. */
  id: string;
  clerkId: string;
  email: string;
  name: string;
}
