// The sandbox viewer's stylesheet and script.
import path from 'node:path';
import { AssetFolder } from '../../http/assets.ts';

export const viewerAssets = new AssetFolder(path.join(import.meta.dirname, '../assets'));
