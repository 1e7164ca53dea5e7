module {ÿþ func.func @f() { return } }
