// The portal's stylesheet, served under /assets/ like the journey's (src/http/assets.ts).
import path from 'node:path';
import { AssetFolder } from '../../http/assets.ts';

export const portalAssets = new AssetFolder(path.join(import.meta.dirname, '../assets'));
