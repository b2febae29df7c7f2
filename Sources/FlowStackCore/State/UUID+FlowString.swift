import Foundation

extension UUID {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The UUID in its canonical upper-case text form, like `uuidString`, formatted without
    /// `printf` (rules read stack identities on the hot path).
    package var flowString: String {
        let digits = UUID.hexDigits
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var out = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    buffer[out] = digits[Int(byte >> 4)]
                    buffer[out + 1] = digits[Int(byte & 0x0F)]
                    out += 2
                }
                return out
            }
        }
    }
}
