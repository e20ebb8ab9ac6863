/** '1 image', '13 images'. */
export function countLabel(count: number): string {
  return `${count} ${count === 1 ? 'image' : 'images'}`;
}
