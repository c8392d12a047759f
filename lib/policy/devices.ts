/**
 * Device names that are no place (RULINGS, "Values that are not places"): the null device
 * anywhere it is named, and the devices that only give or take bytes, holding no file (`/dev/zero`,
 * `/dev/full`, `/dev/random`, `/dev/urandom`), where a command reads or writes their bytes: a
 * redirect's file (`tr -dc a-z </dev/urandom`, `> /dev/zero`) and an option's value
 * (`dd if=/dev/urandom`, `shuf --random-source=/dev/urandom`). Named as an operand they are
 * judged as paths (`rm`, `mv x`, `chmod` change the device file itself), and so is any other
 * device (`dd of=/dev/sda` writes a disk, `/dev/tty` is the user's terminal).
 *
 * @module
 */

/** The null device: no place, however it is named. */
export const NULL_DEVICE = "/dev/null";

/** Devices that hold no file, whose bytes a command may read or write. */
const DATA_DEVICES: ReadonlySet<string> = new Set([
  NULL_DEVICE,
  "/dev/zero",
  "/dev/full",
  "/dev/random",
  "/dev/urandom",
]);

/** Whether a path as written is a device whose bytes are no place to read or write. */
export function isDataDevice(path: string): boolean {
  return path.startsWith("/dev/") && DATA_DEVICES.has(path);
}
