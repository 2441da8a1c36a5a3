let s: String; // want "JS-LIB-P08"
let n: number;
let o: Object = {}; // want "JS-LIB-P08"
let m: MyString;
