import sharp from 'sharp';

/** A synthetic seller photo: a red rounded box with a white label on a light grey backdrop. */
export function productPhoto(size = 400, backdrop = '#eeeeee'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <rect width="100%" height="100%" fill="${backdrop}"/>
    <rect x="${size * 0.3}" y="${size * 0.2}" width="${size * 0.4}" height="${size * 0.6}" rx="${size * 0.05}" fill="#c8102e"/>
    <rect x="${size * 0.36}" y="${size * 0.4}" width="${size * 0.28}" height="${size * 0.15}" fill="#ffffff"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer();
}
