/**
 * Passwords too common to allow (the strength rule `password-common`): a short list of the passwords that top every
 * published breach count, lower case; matching ignores case.
 */
export const commonPasswords: ReadonlySet<string> = new Set([
  '000000', '111111', '1111111', '11111111', '112233', '121212', '123123', '123321', '12341234', '12345', '123456',
  '1234567', '12345678', '123456789', '1234567890', '123qwe', '147258369', '159753', '1q2w3e', '1q2w3e4r',
  '1q2w3e4r5t', '1qaz2wsx', '654321', '666666', '696969', '7777777', '88888888', '987654321', 'a123456', 'aa123456',
  'abc123', 'abcd1234', 'abcdef', 'access', 'admin', 'admin123', 'apple', 'asdfgh', 'asdfghjkl', 'ashley', 'autumn',
  'azerty', 'banana', 'baseball', 'batman', 'changeme', 'charlie', 'cheese', 'chocolate', 'computer', 'cookie',
  'default', 'dragon', 'flower', 'football', 'freedom', 'ginger', 'google', 'guest', 'hello', 'hello123', 'hockey',
  'hunter', 'iloveyou', 'internet', 'iphone', 'jennifer', 'jordan', 'killer', 'letmein', 'letmein1', 'login',
  'loveme', 'master', 'michael', 'monkey', 'mustang', 'naruto', 'orange', 'p@ssw0rd', 'p@ssword', 'pass12345',
  'passw0rd', 'password', 'password1', 'password123', 'pepper', 'pokemon', 'princess', 'purple', 'q1w2e3r4',
  'q1w2e3r4t5', 'qazwsx', 'qwe123', 'qwerty', 'qwerty123', 'qwertyuiop', 'root', 'samsung', 'secret', 'shadow',
  'soccer', 'spring', 'starwars', 'summer', 'sunshine', 'superman', 'test', 'test123', 'testing', 'toor',
  'trustno1', 'user', 'welcome', 'welcome1', 'welcome123', 'whatever', 'winter', 'zaq12wsx', 'zxcvbnm'
])
