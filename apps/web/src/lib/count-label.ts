/** '13 images', or '24+ images' while the server holds more than has been fetched. */
export function countLabel(count: number, more: boolean): string {
  return `${count}${more ? '+' : ''} ${count === 1 && !more ? 'image' : 'images'}`;
}
