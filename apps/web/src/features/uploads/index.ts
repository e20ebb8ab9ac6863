// What other features may use of uploads: storing a photo.
export { uploadImage } from './api/upload-image.js';
