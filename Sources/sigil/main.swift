import SigilCore
func hex(_ b: [UInt8]) -> String { b.map { String(($0 >> 4), radix: 16) + String($0 & 15, radix: 16) }.joined() }
print(hex(SHA1.hash(Array("abc".utf8))))
print(hex(SHA256.hash(Array("abc".utf8))))
print(hex(SHA384.hash(Array("abc".utf8))))
print(hex(SHA512.hash(Array("abc".utf8))))
print(hex(HMAC<SHA256>.authenticationCode(key: Array("key".utf8), message: Array("The quick brown fox jumps over the lazy dog".utf8))))
let x = try BigNum(hexString: "ffffffffffffffffffffffffffffffff")
print((x * x).hexString, try BigNum(3).inverse(modulo: 7), try BigNum(2).power(BigNum(100), modulo: BigNum(1000000007)))
