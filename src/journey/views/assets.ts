// The hosted pages' stylesheet (also the house style of the sandbox viewer and the docs).
import path from 'node:path';
import { AssetFolder } from '../../http/assets.ts';

export const journeyAssets = new AssetFolder(path.join(import.meta.dirname, '../assets'));
