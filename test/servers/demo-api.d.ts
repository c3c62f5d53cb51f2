export interface DemoApi {
  url: string;
  port: number;
  tokens: Set<string>;
  close(): Promise<void>;
}
export function startDemoApi(port?: number): Promise<DemoApi>;
