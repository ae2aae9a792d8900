// Placeholder: social sign-in routes (/splash/{provider}/login, /splash/{provider}/callback).
import type express from "express";

export function mountSocialRoutes(
  _router: express.Router,
  _helpers: { sendPage: (res: express.Response, status: number, page: string) => void; form: express.RequestHandler[] },
): void {}
