i++; // want "JS-STY-P04"
--j; // want "JS-STY-P04"
i += 1;
