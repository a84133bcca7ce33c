/**
 * `work`'s value if it settles within `ms`, else `late`. Nothing is cancelled: the work goes on,
 * and whoever calls this decides what a late answer means. The timer never keeps the process up.
 */
export async function within<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms).unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
