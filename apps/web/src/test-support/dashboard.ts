import { screen } from '@testing-library/react';

/** The dashboard shows its body once the account and both lists are read: waits for it, then gives its file input. */
export async function dashboardInput(): Promise<HTMLInputElement> {
  await screen.findByRole('complementary', { name: 'Your images' });
  return document.getElementById('image-input') as HTMLInputElement;
}
