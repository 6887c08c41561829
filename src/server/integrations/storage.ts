import 'server-only';
import { createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { env, type Env } from '@/server/env';

/**
 * Where customer photos are kept (decisions.md "Custom orders and uploads"): privately, under the
 * server-made upload id, never under a public path. Two real implementations, chosen by
 * configuration: a folder on disk (the embedded default) and any S3-compatible bucket.
 */
export interface PhotoStorage {
  /** Takes the complete file at `file` (a spool file the caller owns) and keeps it as `id`. */
  put(id: string, file: { path: string; size: number; contentType: string }): Promise<void>;
  /** The stored bytes, or null when nothing is stored under `id`. */
  open(id: string): Promise<{ body: ReadableStream<Uint8Array>; size: number } | null>;
  remove(id: string): Promise<void>;
}

/** Photos as files named by their id in a private folder (mode 700, files 600). */
export class DiskPhotoStorage implements PhotoStorage {
  constructor(readonly root: string) {}

  private fileOf(id: string) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Error('A photo id is a UUID.');
    return path.join(this.root, id);
  }

  async put(id: string, file: { path: string }): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    const target = this.fileOf(id);
    try {
      await rename(file.path, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(file.path, target);
      await unlink(file.path);
    }
    await chmod(target, 0o600);
  }

  async open(id: string) {
    const file = this.fileOf(id);
    try {
      const { size } = await stat(file);
      return { body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(id: string): Promise<void> {
    await unlink(this.fileOf(id)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Key prefix inside the bucket. */
  prefix?: string;
}

/** Photos as private objects (no ACL, no public URL) in any S3-compatible bucket. */
export class S3PhotoStorage implements PhotoStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region ?? 'us-east-1',
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
      // Plain signed bodies: S3-compatible services differ in their support of streamed checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private keyOf(id: string) {
    return `${this.settings.prefix ?? 'photos/'}${id}`;
  }

  async put(id: string, file: { path: string; size: number; contentType: string }): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.keyOf(id),
        Body: createReadStream(file.path),
        ContentLength: file.size,
        ContentType: file.contentType,
      }),
    );
    await unlink(file.path).catch(() => undefined);
  }

  async open(id: string) {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(id) }));
      if (!object.Body) return null;
      return { body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: Number(object.ContentLength ?? 0) };
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
      throw error;
    }
  }

  async remove(id: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(id) }));
  }
}

/** The private folder of the disk storage, and of spool files on their way in. */
export const uploadsFolder = (e: Pick<Env, 'DATA_DIR'>) => path.resolve(e.DATA_DIR, 'uploads');

export function storageFor(e: Env): PhotoStorage {
  if (e.UPLOAD_STORAGE === 's3') {
    return new S3PhotoStorage({
      bucket: e.S3_BUCKET!,
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    });
  }
  return new DiskPhotoStorage(uploadsFolder(e));
}

let configured: PhotoStorage | undefined;

/** The storage this server is configured with. */
export function photoStorage(): PhotoStorage {
  configured ??= storageFor(env());
  return configured;
}
